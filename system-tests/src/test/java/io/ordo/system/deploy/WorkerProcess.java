package io.ordo.system.deploy;

import io.ordo.systemtest.OrdoProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code ordo} as a child process on this test run's class path, as the container runs it
 * ({@code java -jar ordo.jar <args>}), so it can be stopped with SIGTERM as the kubelet does.
 */
final class WorkerProcess implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final Path stderr;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private WorkerProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
    }

    static WorkerProcess start(List<String> args) {
        List<String> command = OrdoProcess.commandLine("256m", args);
        try {
            Path stderr = Files.createTempFile("ordo-worker", ".err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(stderr.toFile());
            builder.environment().remove("ORDO_REDIS_URI"); // the in-memory backend needs no Redis
            return new WorkerProcess(builder.start(), stderr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** The status and body of a GET; status 0 while nothing answers. */
    Response get(int port, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(2)).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Response(0, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** GETs until the answer is {@code wanted}; that answer. */
    Response awaitGet(int port, String path, String what, Predicate<Response> wanted) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Response last = null;
        while (System.nanoTime() < deadline && process.isAlive()) {
            last = get(port, path);
            if (wanted.test(last)) {
                return last;
            }
            pause();
        }
        throw new AssertionError("GET " + path + " never showed " + what + "; last answer " + last + "; stderr: " + stderr());
    }

    /** SIGTERM, as the kubelet sends it when a pod is deleted or scaled down. */
    void terminate() {
        process.toHandle().destroy();
    }

    int awaitExit(Duration within) {
        try {
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("ordo did not exit within " + within + "; stderr: " + stderr());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return process.exitValue();
    }

    String stderr() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(stderr);
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    record Response(int status, String body) {
    }
}
