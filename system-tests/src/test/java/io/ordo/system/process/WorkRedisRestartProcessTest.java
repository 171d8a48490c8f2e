package io.ordo.system.process;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.systemtest.TaskEvents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The private redis-server under a running {@code ordo work} is stopped and started again: the
 * worker reports not-ready, logs the outage once when it begins and once when it ends, resumes by
 * itself, and every task is processed exactly once.
 */
@Tag("full")
class WorkRedisRestartProcessTest {
    private static final Pattern METRICS_PORT = Pattern.compile("metrics on http://localhost:(\\d+)/metrics");
    private static final Duration OUTAGE = Duration.ofMillis(1500);
    private static final int PER_PARTITION = 20;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void the_worker_rides_out_a_redis_restart_and_loses_nothing(RedisClient client) {
        QueueName queue = QueueName.of("restart-" + UUID.randomUUID());
        List<String> all = new ArrayList<>();
        // every write reaches the append-only file before it is answered: the restart loses nothing told to a client
        try (RedisServer redis = RedisServer.startWithAppendOnlyFile("always"); TaskStoreFactory stores = client.open(redis.uri())) {
            TaskStore store = stores.forQueue(queue);
            // short enough to return what a lost reply leased within the test, long enough to outlast the outage
            store.configure(QueueSettings.builder().heartbeatTtl(Duration.ofSeconds(10)).build());
            for (Partition partition : List.of(Partition.ordered("account-1"), Partition.ordered("account-2"),
                    Partition.regular("emails"))) {
                List<String> ids = IntStream.rangeClosed(1, PER_PARTITION)
                        .mapToObj(i -> partition.code().replace("!", "") + "-" + i).toList();
                store.publish(ids.stream().map(id -> NewTask.builder(partition, "{}".getBytes(UTF_8)).id(id).build()).toList());
                all.addAll(ids);
            }

            try (OrdoProcess worker = OrdoProcess.start("work", "--backend", client.backend(), "--redis", redis.uri(),
                    "--queue", queue.value(), "--concurrency", "4", "--work-time", "40ms", "--log-tasks",
                    "--metrics-port", "0")) {
                int port = metricsPort(worker);
                worker.awaitOut("ten processed tasks", line -> TaskEvents.parse(worker.out()).ids("processed").size() >= 10);
                assertThat(status(port, "/readyz")).isEqualTo(200);

                redis.stop();
                awaitStatus(port, "/readyz", 503);
                assertThat(status(port, "/healthz")).as("alive: restarting the worker would not help").isEqualTo(200);
                OrdoProcess.pause(OUTAGE.toMillis());
                redis.startAgain();
                awaitStatus(port, "/readyz", 200);

                awaitEmpty(store);
                String metrics = get(port, "/metrics");
                assertThat(metrics).containsPattern("ordo_tasks_processed_total\\{(group=\"\",)?queue=\"" + queue + "\"} "
                        + all.size() + "\\.0");
                worker.terminate();
                worker.awaitExit();

                TaskEvents events = TaskEvents.parse(worker.out());
                assertThat(events.ids("processed")).as("every task processed exactly once").containsExactlyInAnyOrderElementsOf(all);
                assertThat(events.ids("started")).as("and started exactly once").containsExactlyInAnyOrderElementsOf(all);
                assertThat(worker.err().stream().filter(line -> line.contains("the backend does not answer")))
                        .as("the outage is logged once when it begins").hasSize(1);
                assertThat(worker.err().stream().filter(line -> line.contains("the backend answers again")))
                        .as("and once when it ends").hasSize(1);
            }
            QueueStats stats = store.stats();
            assertThat(stats.ackedTotal()).isEqualTo(all.size());
            assertThat(stats.dead()).isZero();
        }
    }

    private static int metricsPort(OrdoProcess worker) {
        Matcher matcher = METRICS_PORT.matcher(worker.awaitErr("the metrics port", line -> METRICS_PORT.matcher(line).find()));
        assertThat(matcher.find()).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static void awaitEmpty(TaskStore store) {
        long deadline = System.nanoTime() + OrdoProcess.TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                QueueStats stats = store.stats();
                if (stats.ready() + stats.delayed() + stats.inFlight() == 0) {
                    return;
                }
            } catch (RuntimeException reconnecting) {
                // this test's own client may need a moment after the restart too
            }
            OrdoProcess.pause(50);
        }
        throw new AssertionError("the queue was not drained within " + OrdoProcess.TIMEOUT + ": " + store.stats());
    }

    private void awaitStatus(int port, String path, int wanted) {
        long deadline = System.nanoTime() + OrdoProcess.TIMEOUT.toNanos();
        while (status(port, path) != wanted) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " never answered " + wanted);
            }
            OrdoProcess.pause(20);
        }
    }

    private int status(int port, String path) {
        return send(port, path).statusCode();
    }

    private String get(int port, String path) {
        return send(port, path).body();
    }

    private HttpResponse<String> send(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
