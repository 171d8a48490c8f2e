package io.ordo.examples;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ordo.dashboard.AccessGuard;
import io.ordo.dashboard.DashboardHandler;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.opshttp.OpsHttpServer;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import io.ordo.systemtest.DocSnippets;
import io.ordo.systemtest.ProjectFiles;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's sample of a service that mounts the dashboard and serves the ops endpoints runs, and the README shows exactly this code. */
class ReadmeEmbeddingTest {
    private static final String BEGIN = "// README embedding: begin";
    private static final String END = "// README embedding: end";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void a_service_mounts_the_dashboard_under_a_path_and_serves_the_probes_of_its_worker() throws Exception {
        // README embedding: begin
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Injector injector = Guice.createInjector(new InMemoryQueueModule(Clock.system()), new RuntimeModule(registry));
        TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class);
        Worker<String> worker = injector.getInstance(Workers.class).worker(QueueName.of("emails"), String.class,
                (email, context) -> Outcome.success(), WorkerOptions.builder().build());

        // /metrics, /healthz and /readyz on a port of their own (0: any free one); ready while the worker runs
        OpsHttpServer ops = OpsHttpServer.start(0, registry, worker);

        // the dashboard under /ordo in the service's own Jetty; actions (and here reads) need the token
        InetAddress host = InetAddress.getLoopbackAddress();
        Server server = new Server(new InetSocketAddress(host, 0));
        DashboardHandler dashboard = DashboardHandler.create(stores, "in-memory",
                AccessGuard.create("a-token-of-at-least-16-characters", true, true, host, List.of("ops.example.com")),
                List.of(QueueName.of("emails")), Duration.ofSeconds(5));
        server.setHandler(new ContextHandler(dashboard, "/ordo"));
        server.start();
        worker.start();
        // README embedding: end
        try {
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            HttpResponse<String> page = get(port, "/ordo/queues/emails", "");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("data-base=\"/ordo\"").contains("src=\"/ordo/static/dashboard.js\"");
            assertThat(get(port, "/ordo/static/dashboard.js", "").statusCode()).isEqualTo(200);
            assertThat(get(port, "/ordo/api/overview", "").statusCode()).isEqualTo(401);
            assertThat(get(port, "/ordo/api/overview", "a-token-of-at-least-16-characters").body()).contains("\"emails\"");
            assertThat(get(port, "/queues/emails", "").statusCode()).as("nothing outside the mount path").isEqualTo(404);

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (get(ops.port(), "/readyz", "").statusCode() != 200) {
                assertThat(System.nanoTime()).as("ready once the worker runs").isLessThan(deadline);
                Thread.sleep(10);
            }
        } finally {
            worker.stop();
            server.stop();
            ops.close();
            stores.close();
        }
    }

    @Test
    void the_readme_shows_the_embedding_sample_as_tested() throws IOException {
        Path root = ProjectFiles.projectRoot();
        List<String> tested = DocSnippets.between(BEGIN, END,
                Files.readAllLines(root.resolve("app-cli/src/test/java/io/ordo/examples/ReadmeEmbeddingTest.java")));
        List<String> readme = Files.readAllLines(root.resolve("README.md"));
        int section = readme.indexOf("## Mounting the dashboard / the ops server in your service");
        assertThat(section).as("the README's section on mounting").isNotNegative();

        assertThat(DocSnippets.between("```java", "```", new ArrayList<>(readme.subList(section, readme.size()))))
                .as("the java block of that section").isEqualTo(tested);
    }

    private HttpResponse<String> get(int port, String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (!token.isEmpty()) {
            request.header(AccessGuard.TOKEN_HEADER, token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
