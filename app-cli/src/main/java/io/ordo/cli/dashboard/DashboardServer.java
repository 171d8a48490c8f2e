package io.ordo.cli.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.OrdoException;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The operator dashboard: a few static files (one HTML shell, a style sheet, a script) and the
 * JSON API of {@link DashboardApi}, on the JDK's HTTP server (docs/decisions/dashboard.md).
 * Every page path ({@code /}, {@code /queues/Q}, {@code /queues/Q/dead-letters},
 * {@code /queues/Q/task?id=…}) serves the same shell; the script draws the page from the API.
 */
public final class DashboardServer implements AutoCloseable {
    /** How much throughput history the dashboard keeps. */
    public static final Duration HISTORY_WINDOW = Duration.ofMinutes(15);
    static final int MAX_BODY_BYTES = 64 * 1024;
    private static final String RESOURCES = "/io/ordo/cli/dashboard/";
    private static final String JSON_TYPE = "application/json; charset=utf-8";
    // No inline script or style anywhere: the page's own files only, no framing, no plugins.
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final Map<String, String> STATIC_TYPES = Map.of(
            "dashboard.js", "text/javascript; charset=utf-8",
            "dashboard.css", "text/css; charset=utf-8",
            "favicon.svg", "image/svg+xml");

    private final HttpServer server;
    private final ExecutorService executor;
    private final ThroughputHistory history;
    private final AccessGuard guard;
    private final DashboardApi api;
    private final ObjectMapper json;
    private final byte[] shell;
    private final Map<String, byte[]> files = new HashMap<>();

    private DashboardServer(HttpServer server, ExecutorService executor, ThroughputHistory history, AccessGuard guard,
                            DashboardApi api, ObjectMapper json) {
        this.server = server;
        this.json = json;
        this.executor = executor;
        this.history = history;
        this.guard = guard;
        this.api = api;
        this.shell = resource("index.html");
        STATIC_TYPES.keySet().forEach(name -> files.put(name, resource(name)));
    }

    /**
     * Serves the dashboard of the queues in {@code stores} at {@code address} (port 0: any free port),
     * reading throughput every {@code sampleEvery}; {@code named} queues show even while empty.
     */
    public static DashboardServer start(TaskStoreFactory stores, String backend, InetSocketAddress address,
                                        AccessGuard guard, List<QueueName> named, Duration sampleEvery) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the dashboard on " + address.getHostString() + ":"
                    + address.getPort() + ": " + e.getMessage(), e);
        }
        // one listing per sampling interval: the overview refreshes about as often as the sampler reads
        QueueDirectory directory = new QueueDirectory(stores, named, sampleEvery);
        ThroughputHistory history = new ThroughputHistory(directory::queuesQuietly,
                queue -> stores.forQueue(queue).stats(), System::currentTimeMillis, sampleEvery, HISTORY_WINDOW);
        ObjectMapper json = new ObjectMapper();
        DashboardApi api = new DashboardApi(json, stores, directory, history, backend, guard.actionsEnabled());
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(4, job -> {
            Thread thread = new Thread(job, "ordo-dashboard-http-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        DashboardServer dashboard = new DashboardServer(server, executor, history, guard, api, json);
        server.createContext("/", dashboard::handle);
        server.setExecutor(executor);
        history.start();
        server.start();
        return dashboard;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://host:port/}, with the host as the operator would type it. */
    public String url() {
        InetSocketAddress address = server.getAddress();
        InetAddress bound = address.getAddress();
        String host = bound.isAnyLocalAddress() ? "127.0.0.1"
                : bound instanceof Inet6Address ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
        return "http://" + host + ":" + address.getPort() + "/";
    }

    @Override
    public void close() {
        server.stop(0);
        history.close();
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Headers headers = exchange.getRequestHeaders();
            Optional<AccessGuard.Refusal> refusal = guard.checkRead(headers);
            if (refusal.isPresent()) {
                sendJson(exchange, DashboardApi.Reply.error(refusal.get().status(), refusal.get().message()));
                return;
            }
            String path = exchange.getRequestURI().getRawPath();
            if (path.equals("/api") || path.startsWith("/api/")) {
                sendJson(exchange, api(exchange, segments(path.substring("/api".length()))));
                return;
            }
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n".getBytes(UTF_8));
                return;
            }
            if (path.startsWith("/static/") && files.containsKey(path.substring("/static/".length()))) {
                String name = path.substring("/static/".length());
                send(exchange, 200, STATIC_TYPES.get(name), files.get(name));
            } else if (isPage(segments(path))) {
                send(exchange, 200, "text/html; charset=utf-8", shell);
            } else {
                send(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(UTF_8));
            }
        }
    }

    private DashboardApi.Reply api(HttpExchange exchange, List<String> segments) {
        try {
            return switch (exchange.getRequestMethod()) {
                case "GET", "HEAD" -> api.read(segments, query(exchange.getRequestURI().getRawQuery()));
                case "POST" -> {
                    Optional<AccessGuard.Refusal> refusal = guard.checkAction(exchange.getRequestHeaders());
                    if (refusal.isPresent()) {
                        yield DashboardApi.Reply.error(refusal.get().status(), refusal.get().message());
                    }
                    yield api.act(segments, body(exchange));
                }
                default -> DashboardApi.Reply.error(405, "reads are GET, actions are POST");
            };
        } catch (InvalidInputException badInput) {
            return DashboardApi.Reply.error(400, badInput.getMessage());
        } catch (OrdoException backend) {
            return DashboardApi.Reply.error(503, DashboardApi.describe(backend));
        } catch (RuntimeException bug) {
            return DashboardApi.Reply.error(500, "unexpected " + bug.getClass().getName()
                    + (bug.getMessage() == null ? "" : ": " + bug.getMessage()));
        }
    }

    /** A JSON object, sent as application/json (a cross-site form cannot send that type without a CORS preflight). */
    private JsonNode body(HttpExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase().startsWith("application/json")) {
            throw new InvalidInputException("Content-Type", "actions take a JSON body (application/json), was " + type);
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new InvalidInputException("body", "must be at most " + MAX_BODY_BYTES + " bytes");
            }
            JsonNode body = bytes.length == 0 ? json.createObjectNode() : json.readTree(bytes);
            if (body == null || !body.isObject()) {
                throw new InvalidInputException("body", "must be a JSON object");
            }
            return body;
        } catch (JsonProcessingException e) {
            throw new InvalidInputException("body", "is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isPage(List<String> segments) {
        if (segments.isEmpty()) {
            return true;
        }
        if (!segments.get(0).equals("queues") || segments.size() < 2 || segments.size() > 3) {
            return false;
        }
        return segments.size() == 2 || segments.get(2).equals("dead-letters") || segments.get(2).equals("task");
    }

    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String part : rawPath.split("/")) {
            if (!part.isEmpty()) {
                segments.add(URLDecoder.decode(part, UTF_8));
            }
        }
        return segments;
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery != null) {
            Arrays.stream(rawQuery.split("&")).filter(pair -> !pair.isEmpty()).forEach(pair -> {
                int equals = pair.indexOf('=');
                String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), UTF_8);
                String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), UTF_8);
                query.putIfAbsent(name, value);
            });
        }
        return query;
    }

    private void sendJson(HttpExchange exchange, DashboardApi.Reply reply) throws IOException {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        send(exchange, reply.status(), JSON_TYPE, json.writeValueAsBytes(reply.body()));
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("Cross-Origin-Resource-Policy", "same-origin");
        if (!headers.containsKey("Cache-Control")) {
            headers.set("Cache-Control", "no-cache");
        }
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = DashboardServer.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks the dashboard file " + RESOURCES + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
