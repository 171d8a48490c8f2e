package io.ordo.system.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the worker with the Deployment's own arguments (on the in-memory backend, with demo tasks and
 * a free metrics port) and checks deploy/ against it: every metric that alerts, scalers and the
 * dashboard query is one it exports; the probes and the scrape hit what it serves; it stops within
 * the pod's termination grace period.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("full")
class DeploymentMatchesTheWorkerTest {
    private static final String POD_NAME = "ordo-worker-5d9c7b-x2kq";
    private static final int DEMO_TASKS = 12;
    /** After the grace period the worker still returns what it holds and closes its connections. */
    private static final Duration SHUTDOWN_MARGIN = Duration.ofSeconds(5);

    private final JsonNode container = DeployKit.workerContainer();
    private final List<String> deploymentArgs = texts(container.path("args"));
    private int port;
    private WorkerProcess worker;
    private Set<String> exported;

    @BeforeAll
    void startTheWorkerAsTheDeploymentDoes() {
        port = freePort();
        List<String> args = WorkerArguments.adapted(deploymentArgs, Map.of("POD_NAME", POD_NAME), Map.of(
                "--backend", "inmemory", "--metrics-port", Integer.toString(port),
                "--demo-tasks", Integer.toString(DEMO_TASKS), "--work-time", "1ms"));
        worker = WorkerProcess.start(args);
        // every meter family exists once a task has been processed
        String scrape = worker.awaitGet(port, "/metrics", "a processed task",
                response -> response.status() == 200 && response.body().lines()
                        .anyMatch(line -> line.startsWith("ordo_tasks_processed_total{") && !line.endsWith(" 0.0"))).body();
        exported = MetricNameCheck.seriesNames(scrape);
    }

    @AfterAll
    void stopTheWorker() throws IOException {
        worker.close();
    }

    @Test
    @Order(1)
    void every_metric_that_alerts_scalers_and_the_dashboard_use_is_exported_by_the_worker() {
        List<MetricReference> references = MetricReferences.inDeployKit();

        assertThat(MetricNameCheck.problems(references, exported)).isEmpty();
        // the check is not vacuous: each kind of consumer of the metrics was found and read
        assertThat(references).extracting(MetricReference::where)
                .anyMatch(where -> where.contains("PrometheusRule"))
                .anyMatch(where -> where.contains("ScaledObject"))
                .anyMatch(where -> where.contains("HorizontalPodAutoscaler"))
                .anyMatch(where -> where.contains("prometheus-adapter-values.yaml"))
                .anyMatch(where -> where.contains("ordo-dashboard.json"));
        assertThat(references.stream().map(MetricReference::name).distinct().count()).isGreaterThanOrEqualTo(10);
    }

    @Test
    @Order(2)
    void the_probes_and_the_scrape_use_the_port_and_paths_the_worker_serves() {
        int containerPort = namedPort("metrics");
        assertThat(WorkerArguments.optionValue(deploymentArgs, "--metrics-port"))
                .as("--metrics-port in the Deployment's args").isEqualTo(containerPort);

        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            JsonNode httpGet = container.path(probe).path("httpGet");
            assertThat(httpGet.isMissingNode()).as(probe + " is an HTTP GET").isFalse();
            JsonNode probePort = httpGet.path("port");
            assertThat(probePort.isInt() ? probePort.asInt() : namedPort(probePort.asText())).as(probe + " port").isEqualTo(containerPort);
            assertThat(worker.get(port, httpGet.path("path").asText()).status()).as(probe + " " + httpGet.path("path").asText())
                    .isEqualTo(200);
        }
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");

        for (JsonNode endpoint : DeployKit.single("PodMonitor").document().at("/spec/podMetricsEndpoints")) {
            assertThat(namedPort(endpoint.path("port").asText())).isEqualTo(containerPort);
            assertThat(worker.get(port, endpoint.path("path").asText()).body()).contains("ordo_tasks_processed_total");
        }
    }

    @Test
    @Order(3)
    void the_consumer_is_named_after_the_pod_and_this_start() {
        assertThat(WorkerArguments.optionValue(deploymentArgs, "--consumer")).isEqualTo("$(POD_NAME)");
        JsonNode podName = env("POD_NAME");
        assertThat(podName.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("metadata.name");
        // the pod's name and a tag of this start: a container restarted in place is a new consumer
        assertThat(worker.stderr()).containsPattern("as " + POD_NAME + "-[0-9a-z]{4} ");
    }

    @Test
    @Order(4)
    void sigterm_stops_the_worker_well_within_the_pods_termination_grace_period() {
        Duration grace = (Duration) WorkerArguments.optionValue(deploymentArgs, "--grace");
        Duration termination = Duration.ofSeconds(DeployKit.single("Deployment").document()
                .at("/spec/template/spec/terminationGracePeriodSeconds").asLong());
        assertThat(termination).as("terminationGracePeriodSeconds against --grace " + grace)
                .isGreaterThanOrEqualTo(grace.plus(SHUTDOWN_MARGIN));

        worker.terminate();
        assertThat(worker.awaitExit(termination)).isEqualTo(143);
    }

    private int namedPort(String name) {
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(name)) {
                return port.path("containerPort").asInt();
            }
        }
        throw new AssertionError("the worker container has no port named " + name);
    }

    private JsonNode env(String name) {
        return StreamSupport.stream(container.path("env").spliterator(), false)
                .filter(variable -> variable.path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("the worker container sets no " + name));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
