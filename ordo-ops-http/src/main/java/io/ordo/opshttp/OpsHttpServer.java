package io.ordo.opshttp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerHealth;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * {@code /metrics} (Prometheus text), {@code /healthz} (200 while the worker runs) and
 * {@code /readyz} (200 while it runs and its backend answers, else 503) on the JDK's own HTTP
 * server (docs/decisions/cli-metrics-endpoint.md). {@code ordo work --metrics-port} serves it; a
 * service that runs its own {@link Worker} starts it the same way
 * (docs/decisions/embeddable-operations.md).
 */
public final class OpsHttpServer implements AutoCloseable {
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private OpsHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Serves {@code registry} and the probes of {@code worker} on every interface at {@code port} (0: any free port). */
    public static OpsHttpServer start(int port, PrometheusMeterRegistry registry, Worker<?> worker) {
        return start(port, registry, worker::health);
    }

    /**
     * Serves on every interface at {@code port} (0: any free port); each probe asks {@code health}
     * anew, so liveness and readiness follow whatever it reports (e.g. before a worker exists).
     */
    public static OpsHttpServer start(int port, PrometheusMeterRegistry registry, Supplier<WorkerHealth> health) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on port " + port + ": " + e.getMessage(), e);
        }
        server.createContext("/metrics", exchange -> respond(exchange, 200, PROMETHEUS_TEXT, registry.scrape()));
        server.createContext("/healthz", exchange -> probe(exchange, health.get(), health.get().live()));
        server.createContext("/readyz", exchange -> probe(exchange, health.get(), health.get().ready()));
        server.createContext("/", exchange -> respond(exchange, 404, "text/plain; charset=utf-8",
                "not found: try /metrics, /healthz or /readyz\n"));
        ExecutorService executor = Executors.newSingleThreadExecutor(job -> {
            Thread thread = new Thread(job, "ordo-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.start();
        return new OpsHttpServer(server, executor);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void probe(HttpExchange exchange, WorkerHealth health, boolean ok) throws IOException {
        respond(exchange, ok ? 200 : 503, "text/plain; charset=utf-8", (ok ? "ok: " : "not ok: ") + health.describe() + "\n");
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream stream = exchange.getResponseBody()) {
                stream.write(bytes);
            }
        }
    }
}
