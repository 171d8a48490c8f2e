package io.ordo.opshttp;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** /metrics serves exactly the names docs/metrics.md documents; the probes follow the worker. */
class OpsHttpServerTest {
    private static final Pattern DOCUMENTED = Pattern.compile("^\\| `(ordo_[a-z_]+)` \\|", Pattern.MULTILINE);
    private static final Pattern FAMILY = Pattern.compile("^# TYPE (ordo_[a-z_]+) ", Pattern.MULTILINE);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void metrics_are_served_under_the_documented_names_and_the_probes_follow_the_worker() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()), new RuntimeModule(registry));
        Workers workers = injector.getInstance(Workers.class);
        QueueName queue = QueueName.of("metrics");
        workers.<String>publisher(queue).publish(Partition.regular("p"), "hello");
        Worker<String> worker = workers.worker(queue, String.class, (payload, context) -> Outcome.success(),
                WorkerOptions.builder().fetchWait(Duration.ofMillis(20)).build());
        worker.start();
        try (OpsHttpServer server = OpsHttpServer.start(0, registry, worker::health)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            // (every meter carries the group it serves: empty for the queue's own view, docs/metrics.md)
            Pattern processed = Pattern.compile("ordo_tasks_processed_total\\{(group=\"\",)?queue=\"metrics\"} 1\\.0");
            while (!processed.matcher(get(server, "/metrics").body()).find()) {
                assertThat(System.nanoTime()).as("the processed task shows").isLessThan(deadline);
                Thread.sleep(10);
            }
            HttpResponse<String> metrics = get(server, "/metrics");
            assertThat(metrics.headers().firstValue("Content-Type")).contains(OpsHttpServer.PROMETHEUS_TEXT);
            assertThat(families(metrics.body())).isEqualTo(documentedNames());
            assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(server, "/readyz").body()).isEqualTo("ok: state running, backend reachable, 0 held\n");
            assertThat(get(server, "/nothing").statusCode()).isEqualTo(404);

            worker.stop();

            assertThat(get(server, "/readyz").statusCode()).isEqualTo(503);
            assertThat(get(server, "/healthz").body()).isEqualTo("not ok: state stopped, backend reachable, 0 held\n");
        } finally {
            worker.stop();
        }
    }

    /** Metric families, as in docs/metrics.md: a histogram's _max gauge belongs to it. */
    private static Set<String> families(String scrape) {
        Matcher matcher = FAMILY.matcher(scrape);
        Set<String> names = new java.util.TreeSet<>();
        while (matcher.find()) {
            names.add(matcher.group(1).replaceAll("_max$", ""));
        }
        return names;
    }

    private static Set<String> documentedNames() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "metrics.md"));
        return DOCUMENTED.matcher(doc).results().map(match -> match.group(1)).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private HttpResponse<String> get(OpsHttpServer server, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
