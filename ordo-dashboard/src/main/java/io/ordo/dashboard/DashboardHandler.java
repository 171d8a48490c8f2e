package io.ordo.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.OrdoException;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The operator dashboard as a Jetty {@link Handler}: a few static files (one HTML shell, a style
 * sheet, a script) and the JSON API of {@link DashboardApi} (docs/decisions/dashboard-server.md,
 * docs/decisions/embeddable-operations.md). {@link DashboardServer} serves it on a port of its own;
 * a service mounts it in its own Jetty server, at the root or under a path with a
 * {@code ContextHandler}. Every page path ({@code /}, {@code /queues/Q}, {@code /queues/Q/dead-letters},
 * {@code /queues/Q/task?id=…}, each with {@code group=G} for one of the queue's consumer groups, under the
 * mount path, and the task lists {@code /queues/Q/partition?partition=P}, {@code /queues/Q/delayed},
 * {@code /queues/Q/in-flight}, {@code /queues/Q/completed}) serves the same shell; the script draws the page from the API.
 *
 * <p>API calls, the only ones that reach the backend, run on a small pool of their own and are
 * answered within {@link #BACKEND_ANSWER_TIMEOUT} (503 past it), so a frozen Redis holds that pool,
 * never the threads that serve the page. Starting the handler (with its server) starts the throughput
 * sampler; stopping it stops the sampler and the pool, and it is not started again.
 */
public final class DashboardHandler extends Handler.Abstract implements AutoCloseable {
    /** How much throughput history the dashboard keeps. */
    public static final Duration HISTORY_WINDOW = Duration.ofMinutes(15);
    /** How long an API call may wait for the backend before the page is told it did not answer. */
    public static final Duration BACKEND_ANSWER_TIMEOUT = Duration.ofSeconds(3);
    static final int MAX_BODY_BYTES = 64 * 1024;
    /** Backend calls at once, and waiting: past them a read is refused at once rather than queued behind a stuck backend. */
    static final int BACKEND_THREADS = 4;
    static final int BACKEND_QUEUE = 16;
    /** Backend reads the API makes at most, over every client (inspections are paced apart, by their cost). */
    static final int BACKEND_READS_PER_SECOND = 200;
    private static final String RESOURCES = "/io/ordo/dashboard/";
    /** A queue's pages below {@code /queues/Q}: the script draws each from the API. */
    private static final java.util.Set<String> PAGES = java.util.Set.of("dead-letters", "task", "partition", "delayed", "in-flight",
            "completed");
    /** Where the shell names the mount path (empty at the root): its links, its files and the script's API calls start with it. */
    private static final String BASE_MARK = "{{base}}";
    private static final String JSON_TYPE = "application/json; charset=utf-8";
    // No inline script or style anywhere: the page's own files only, no framing, no plugins.
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final Map<String, String> STATIC_TYPES = Map.of(
            "dashboard-view.js", "text/javascript; charset=utf-8",
            "dashboard-completed.js", "text/javascript; charset=utf-8",
            "dashboard.js", "text/javascript; charset=utf-8",
            "dashboard.css", "text/css; charset=utf-8",
            "favicon.svg", "image/svg+xml");

    private final ThreadPoolExecutor backendCalls;
    private final ThroughputHistory history;
    private final AccessGuard guard;
    private final DashboardApi api;
    private final ObjectMapper json;
    private final String shell;
    private final Map<String, byte[]> shells = new ConcurrentHashMap<>();
    private final Map<String, byte[]> files = new HashMap<>();

    private DashboardHandler(ThreadPoolExecutor backendCalls, ThroughputHistory history, AccessGuard guard,
                             DashboardApi api, ObjectMapper json) {
        this.backendCalls = backendCalls;
        this.history = history;
        this.guard = guard;
        this.api = api;
        this.json = json;
        this.shell = new String(resource("index.html"), UTF_8);
        STATIC_TYPES.keySet().forEach(name -> files.put(name, resource(name)));
    }

    /**
     * The dashboard of the queues in {@code stores}, behind {@code guard} (token, allowed hosts),
     * reading throughput every {@code sampleEvery}; {@code named} queues show even while empty, and
     * {@code backend} names the backend on the page.
     */
    public static DashboardHandler create(TaskStoreFactory stores, String backend, AccessGuard guard,
                                          List<QueueName> named, Duration sampleEvery) {
        // one listing per sampling interval: the overview refreshes about as often as the sampler reads
        QueueDirectory directory = new QueueDirectory(stores, named, sampleEvery);
        ThroughputHistory history = new ThroughputHistory(directory::queuesQuietly,
                queue -> stores.forQueue(queue).stats(), System::currentTimeMillis, sampleEvery, HISTORY_WINDOW);
        ObjectMapper json = new ObjectMapper();
        ReadBudget budget = new ReadBudget(System::nanoTime, BACKEND_READS_PER_SECOND);
        DashboardApi api = new DashboardApi(json, stores, directory, history, backend, guard.actionsEnabled(),
                new InspectionPacer(System::nanoTime), new StatsPacer(System::nanoTime, sampleEvery, budget), budget);
        return new DashboardHandler(backendPool(), history, guard, api, json);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        history.start();
    }

    @Override
    protected void doStop() throws Exception {
        history.close();
        backendCalls.shutdownNow();
        super.doStop();
    }

    /** Stops the sampler and the backend pool; the server it is mounted in stops it too. */
    @Override
    public void close() {
        history.close();
        backendCalls.shutdownNow();
    }

    private static ThreadPoolExecutor backendPool() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(BACKEND_THREADS, BACKEND_THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(BACKEND_QUEUE), job -> {
            Thread thread = new Thread(job, "ordo-dashboard-backend-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Every request: the Host (and token) check, then the API, a static file or the page shell. */
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        HttpFields headers = request.getHeaders();
        UnaryOperator<String> header = headers::get;
        String base = mountPath(request);
        String rawPath = request.getHttpURI().getPath();
        // the raw path below the mount path: segments() decodes each segment once
        String path = rawPath.startsWith(base) ? rawPath.substring(base.length()) : rawPath;
        String method = request.getMethod();
        if (path.equals("/api") || path.startsWith("/api/")) {
            List<String> segments = segments(path.substring("/api".length()));
            Optional<AccessGuard.Refusal> refusal = switch (method) {
                case "POST" -> segments.equals(List.of("session")) ? guard.checkSession(header) : guard.checkAction(header);
                default -> guard.checkRead(header);
            };
            if (refusal.isPresent()) {
                sendJson(request, response, callback, DashboardApi.Reply.error(refusal.get().status(), refusal.get().message()));
            } else {
                api(request, response, callback, segments);
            }
            return true;
        }
        Optional<AccessGuard.Refusal> refusal = guard.checkHost(header);
        if (refusal.isPresent()) {
            sendJson(request, response, callback, DashboardApi.Reply.error(refusal.get().status(), refusal.get().message()));
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            send(request, response, callback, 405, "text/plain; charset=utf-8", "method not allowed\n".getBytes(UTF_8));
        } else if (path.startsWith("/static/") && files.containsKey(path.substring("/static/".length()))) {
            String name = path.substring("/static/".length());
            send(request, response, callback, 200, STATIC_TYPES.get(name), files.get(name));
        } else if (isPage(segments(path))) {
            send(request, response, callback, 200, "text/html; charset=utf-8", shell(base));
        } else {
            send(request, response, callback, 404, "text/plain; charset=utf-8", "not found\n".getBytes(UTF_8));
        }
        return true;
    }

    /** The path a ContextHandler mounts the dashboard under; the root ("") without one, as on its own server. */
    private static String mountPath(Request request) {
        String path = Request.getContextPath(request);
        return path == null || path.equals("/") ? "" : path;
    }

    /** The page shell with its links under {@code base}, the mount path (a service's Jetty sets it, so it is not a client's text). */
    private byte[] shell(String base) {
        return shells.computeIfAbsent(base, path -> shell.replace(BASE_MARK, escapeHtml(path)).getBytes(UTF_8));
    }

    private static String escapeHtml(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Runs the API call on the backend pool and answers when it ends, or with a 503 when the backend is too slow. */
    private void api(Request request, Response response, Callback callback, List<String> segments) {
        String method = request.getMethod();
        Map<String, String> query = query(request.getHttpURI().getQuery());
        CompletableFuture<DashboardApi.Reply> reply = switch (method) {
            case "GET", "HEAD" -> onBackend(() -> api.read(segments, query));
            case "POST" -> body(request).thenCompose(body -> segments.equals(List.of("session"))
                    ? CompletableFuture.completedFuture(DashboardApi.Reply.ok(
                            json.createObjectNode().put("actions", guard.actionsEnabled())))
                    : onBackend(() -> api.act(segments, query, body)));
            default -> CompletableFuture.completedFuture(DashboardApi.Reply.error(405, "reads are GET, actions are POST"));
        };
        reply.orTimeout(BACKEND_ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionally(thrown -> failure(thrown, method.equals("POST")))
                .thenAccept(answer -> sendJson(request, response, callback, answer));
    }

    private CompletableFuture<DashboardApi.Reply> onBackend(Supplier<DashboardApi.Reply> call) {
        long answerBy = System.nanoTime() + BACKEND_ANSWER_TIMEOUT.toNanos();
        try {
            return CompletableFuture.supplyAsync(() -> {
                // a call still queued when its page was told it failed is not made at all
                if (System.nanoTime() - answerBy > 0) {
                    throw new CancellationException("not started within " + BACKEND_ANSWER_TIMEOUT.toSeconds() + " s");
                }
                return call.get();
            }, backendCalls);
        } catch (RejectedExecutionException busy) {
            return CompletableFuture.failedFuture(busy);
        }
    }

    private static DashboardApi.Reply failure(Throwable thrown, boolean action) {
        Throwable problem = thrown instanceof CompletionException && thrown.getCause() != null ? thrown.getCause() : thrown;
        if (problem instanceof InvalidInputException badInput) {
            return DashboardApi.Reply.error(400, badInput.getMessage());
        }
        if (problem instanceof TimeoutException) {
            return DashboardApi.Reply.error(503, "the backend did not answer within " + BACKEND_ANSWER_TIMEOUT.toSeconds() + " s; "
                    + (action ? "an action that reached it may still take effect: reload to see" : "the page tries again on its next refresh"));
        }
        if (problem instanceof RejectedExecutionException) {
            return DashboardApi.Reply.error(503, "the backend did not answer: " + (BACKEND_THREADS + BACKEND_QUEUE)
                    + " calls are already waiting for it; " + (action ? "the action was not made" : "the page tries again on its next refresh"));
        }
        if (problem instanceof DashboardApi.NotFound notFound) {
            return DashboardApi.Reply.error(404, notFound.getMessage());
        }
        if (problem instanceof DashboardApi.OverBudget overBudget) {
            return DashboardApi.Reply.error(503, overBudget.getMessage());
        }
        if (problem instanceof OrdoException backend) {
            return DashboardApi.Reply.error(503, DashboardApi.describe(backend));
        }
        return DashboardApi.Reply.error(500, "unexpected " + problem.getClass().getName()
                + (problem.getMessage() == null ? "" : ": " + problem.getMessage()));
    }

    /** A JSON object, sent as application/json (a cross-site form cannot send that type without a CORS preflight), read without holding a thread. */
    private CompletableFuture<JsonNode> body(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null || !type.toLowerCase().startsWith("application/json")) {
            return CompletableFuture.failedFuture(new InvalidInputException("Content-Type",
                    "actions take a JSON body (application/json), was " + type));
        }
        long length = request.getLength();
        if (length > MAX_BODY_BYTES) {
            return CompletableFuture.failedFuture(tooLong());
        }
        return Content.Source.asByteArrayAsync(request, MAX_BODY_BYTES + 1).handle((bytes, failed) -> {
            if (failed != null || bytes.length > MAX_BODY_BYTES) {
                throw tooLong();
            }
            try {
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
        });
    }

    private static InvalidInputException tooLong() {
        return new InvalidInputException("body", "must be at most " + MAX_BODY_BYTES + " bytes");
    }

    private static boolean isPage(List<String> segments) {
        if (segments.isEmpty()) {
            return true;
        }
        if (!segments.get(0).equals("queues") || segments.size() < 2 || segments.size() > 3) {
            return false;
        }
        return segments.size() == 2 || PAGES.contains(segments.get(2));
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

    private void sendJson(Request request, Response response, Callback callback, DashboardApi.Reply reply) {
        response.getHeaders().put("Cache-Control", "no-store");
        byte[] body;
        try {
            body = json.writeValueAsBytes(reply.body());
        } catch (JsonProcessingException e) {
            body = "{\"error\":\"unwritable answer\"}".getBytes(UTF_8);
        }
        send(request, response, callback, reply.status(), JSON_TYPE, body);
    }

    private static void send(Request request, Response response, Callback callback, int status, String contentType,
                             byte[] body) {
        HttpFields.Mutable headers = response.getHeaders();
        headers.put("Content-Type", contentType);
        headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cross-Origin-Resource-Policy", "same-origin");
        if (!headers.contains("Cache-Control")) {
            headers.put("Cache-Control", "no-cache");
        }
        headers.put(HttpHeader.CONTENT_LENGTH, Long.toString(body.length));
        response.setStatus(status);
        response.write(true, request.getMethod().equals("HEAD") ? ByteBuffer.allocate(0) : ByteBuffer.wrap(body), callback);
    }

    private static byte[] resource(String name) {
        try (InputStream in = DashboardHandler.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks the dashboard file " + RESOURCES + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
