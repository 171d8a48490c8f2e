package io.ordo.cli.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private redis-server that can be stopped and started again on the same loopback port with its
 * data: every write goes to the append-only file before it is answered ({@code appendfsync always}),
 * so a restart loses nothing that a client was told about. Never the shared Redis on 6379.
 */
public final class RestartableRedis implements AutoCloseable {
    private static final int SHARED_PORT = 6379;

    private final int port;
    private final Path directory;
    private Process process;

    private RestartableRedis(int port, Path directory) {
        this.port = port;
        this.directory = directory;
    }

    public static RestartableRedis start() {
        try {
            RestartableRedis redis = new RestartableRedis(freePort(), Files.createTempDirectory("ordo-restart-"));
            redis.startAgain();
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Stops the server the way an operator does (SIGTERM); clients find nobody listening. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Starts it on the same port with the same data. */
    public void startAgain() {
        List<String> command = List.of(executable(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                "--daemonize", "no", "--logfile", "redis.log");
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (!answers()) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not start: " + log());
            }
            OrdoProcess.pause(20);
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            socket.getOutputStream().write("PING\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            byte[] reply = new byte[7];
            return socket.getInputStream().read(reply) > 0 && new String(reply, java.nio.charset.StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static String executable() {
        String configured = System.getenv("ORDO_REDIS_SERVER");
        return configured != null && !configured.isBlank() ? configured : "redis-server";
    }

    private static int freePort() throws IOException {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (socket.getLocalPort() != SHARED_PORT) {
                    return socket.getLocalPort();
                }
            }
        }
    }
}
