package io.ordo.opshttp;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service that runs its own worker serves /metrics and the probes around it: not ready before
 * the worker starts, ready while it runs, neither live nor ready once it stopped.
 */
class OpsHttpAroundAWorkerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void a_service_serves_the_probes_of_its_own_worker_and_readiness_follows_the_worker() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()), new RuntimeModule(registry));
        Worker<String> worker = injector.getInstance(Workers.class).worker(QueueName.of("emails"), String.class,
                (email, context) -> Outcome.success(), WorkerOptions.builder().build());
        // port 0: any free port, ops.port() says which; /readyz answers 503 until the worker runs
        try (OpsHttpServer ops = OpsHttpServer.start(0, registry, worker)) {
            assertThat(get(ops, "/healthz").statusCode()).as("live before it starts").isEqualTo(200);
            assertThat(get(ops, "/readyz").statusCode()).as("not ready before it starts").isEqualTo(503);

            worker.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (get(ops, "/readyz").statusCode() != 200) {
                assertThat(System.nanoTime()).as("ready once it runs").isLessThan(deadline);
                Thread.sleep(10);
            }
            assertThat(get(ops, "/readyz").body()).isEqualTo("ok: state running, backend reachable, 0 held\n");
            assertThat(get(ops, "/metrics").body()).contains("ordo_");

            worker.stop();
            assertThat(get(ops, "/readyz").statusCode()).isEqualTo(503);
            assertThat(get(ops, "/healthz").statusCode()).isEqualTo(503);
        } finally {
            worker.stop();
        }
    }

    private HttpResponse<String> get(OpsHttpServer server, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
