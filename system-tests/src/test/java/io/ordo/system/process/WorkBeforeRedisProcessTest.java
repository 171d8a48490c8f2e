package io.ordo.system.process;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ordo work} with probes, started before its Redis (a pod that comes up first): it serves
 * {@code /healthz} 200 and {@code /readyz} 503 while Redis is missing, and starts working once it comes.
 */
@Tag("full")
class WorkBeforeRedisProcessTest {
    private static final Pattern METRICS_PORT = Pattern.compile("metrics on http://localhost:(\\d+)/metrics");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void a_worker_started_before_redis_is_live_not_ready_and_works_once_redis_comes(RedisClient client) throws IOException {
        int redisPort = freePort();
        String uri = "redis://127.0.0.1:" + redisPort;
        QueueName queue = QueueName.of("early-" + UUID.randomUUID());
        try (OrdoProcess worker = OrdoProcess.start("work", "--backend", client.backend(), "--redis", uri,
                "--queue", queue.value(), "--work-time", "0ms", "--log-tasks", "--metrics-port", "0")) {
            int port = metricsPort(worker);
            worker.awaitErr("the wait for Redis", line -> line.contains("waiting for it"));
            assertThat(status(port, "/healthz")).isEqualTo(200);
            assertThat(status(port, "/readyz")).isEqualTo(503);
            assertThat(worker.isAlive()).isTrue();

            try (RedisServer redis = RedisServer.start(() -> redisPort, List.of());
                 TaskStoreFactory stores = client.open(redis.uri())) {
                stores.forQueue(queue).publish(List.of(
                        NewTask.builder(Partition.regular("p"), "{}".getBytes(UTF_8)).id("first").build()));

                worker.awaitOut("the task processed", line -> line.startsWith("processed") && line.contains("first"));
                assertThat(status(port, "/readyz")).isEqualTo(200);
                worker.terminate();
                assertThat(worker.awaitExit()).isIn(0, 143);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static int metricsPort(OrdoProcess worker) {
        Matcher matcher = METRICS_PORT.matcher(worker.awaitErr("the metrics port", line -> METRICS_PORT.matcher(line).find()));
        assertThat(matcher.find()).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private int status(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
