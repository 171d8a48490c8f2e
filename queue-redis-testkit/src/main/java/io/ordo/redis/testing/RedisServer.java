package io.ordo.redis.testing;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A private {@code redis-server} child process on a free loopback port, never the machine's shared
 * Redis: no persistence, stopped (killed) on {@link #close()}. {@link #command} talks to it without
 * any client library, so the Redis tests of every backend can set it up the same way.
 */
public final class RedisServer implements AutoCloseable {
    /** The shared Redis of these machines; a test must never touch it. */
    private static final int SHARED_PORT = 6379;
    private static final long START_TIMEOUT_MILLIS = 10_000;

    private final int port;
    private final Path directory;
    private final List<String> extraArguments;
    private Process process;

    private RedisServer(int port, Path directory, List<String> extraArguments, Process process) {
        this.port = port;
        this.directory = directory;
        this.extraArguments = List.copyOf(extraArguments);
        this.process = process;
    }

    /** Starts a fresh server and waits until it answers PING; fails loudly if redis-server is missing. */
    public static RedisServer start() {
        return start(RedisServer::freePort, List.of());
    }

    /**
     * Starts a fresh server that keeps an append-only file with the given {@code appendfsync} policy
     * ({@code always}, {@code everysec}), so {@link #kill()} or {@link #stop()} and {@link #startAgain()}
     * show what survives a restart.
     */
    public static RedisServer startWithAppendOnlyFile(String appendfsync) {
        return start(RedisServer::freePort, List.of("--appendonly", "yes", "--appendfsync", appendfsync));
    }

    /**
     * Starts a fresh server on a port from {@code ports} (asked again if another process takes it first),
     * with more redis-server arguments, e.g. {@code --cluster-enabled yes}; the server runs in a directory
     * of its own, where relative file names (a cluster's {@code nodes.conf}) land.
     */
    public static RedisServer start(IntSupplier ports, List<String> extraArguments) {
        String executable = executable();
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = ports.getAsInt();
            Path directory = tempDirectory();
            Process process = launch(executable, port, directory, extraArguments);
            RedisServer server = new RedisServer(port, directory, extraArguments, process);
            try {
                server.awaitPing();
                killOnExit(process, port);
                return server;
            } catch (IllegalStateException e) {
                server.close(); // most likely another process took the port first: try another
                last = e;
            }
        }
        throw last;
    }

    /** A JVM that ends without closing the server (killed test run) must not leave it running. */
    private static void killOnExit(Process process, int port) {
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "redis-server-" + port));
    }

    /**
     * Kills the server the hard way (SIGKILL, as a crash or the OOM killer would): no shutdown save, no
     * goodbye to clients. Its directory stays, so {@link #startAgain()} finds what it had persisted.
     */
    public void kill() {
        stopProcess(true);
    }

    /** Stops the server the way an operator does (SIGTERM); its directory stays for {@link #startAgain()}. */
    public void stop() {
        stopProcess(false);
    }

    /** Starts the server again on the same port, directory and arguments, and waits until it answers. */
    public void startAgain() {
        if (isRunning()) {
            throw new IllegalStateException("redis-server on port " + port + " is still running");
        }
        process = launch(executable(), port, directory, extraArguments);
        awaitPing();
        killOnExit(process, port);
    }

    /** The directory the server keeps its files in (append-only file, log). */
    public Path directory() {
        return directory;
    }

    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + host() + ":" + port;
    }

    /** The server process's id (a profiler's control command names it). */
    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Sends one command and returns its reply: String (status, bulk), Long, List, or null. Error replies throw. */
    public Object command(String... arguments) {
        return command(port, arguments);
    }

    /** Sends the commands one after the other on one connection (as WAIT needs); their replies. */
    public List<Object> commandsOnOneConnection(List<List<String>> commands) {
        try (Socket socket = connect(port)) {
            List<Object> replies = new ArrayList<>();
            for (List<String> command : commands) {
                replies.add(Resp.call(socket, command.toArray(String[]::new)));
            }
            return replies;
        } catch (IOException e) {
            throw new UncheckedIOException("redis-server on port " + port + " did not answer", e);
        }
    }

    /** {@link #command} to any loopback port (a sentinel's, too). */
    static Object command(int port, String... arguments) {
        try (Socket socket = connect(port)) {
            return Resp.call(socket, arguments);
        } catch (IOException e) {
            throw new UncheckedIOException("redis-server on port " + port + " did not answer", e);
        }
    }

    /** {@code used_memory} from INFO memory, in bytes. */
    public long usedMemory() {
        String info = (String) command("INFO", "memory");
        return info.lines().filter(line -> line.startsWith("used_memory:")).findFirst()
                .map(line -> Long.parseLong(line.substring("used_memory:".length()).trim()))
                .orElseThrow(() -> new IllegalStateException("INFO memory without used_memory: " + info));
    }

    /**
     * Reloads every function library loaded in the server with {@code text} replaced by {@code replacement}
     * (a measurement lifting, or a test removing, a constant of the library); a library that already says
     * {@code replacement} is left as it is. Throws when a library says neither, so a renamed constant fails
     * loudly instead of changing nothing.
     */
    public void replaceInLoadedLibraries(String text, String replacement) {
        for (Object library : (List<?>) command("FUNCTION", "LIST", "WITHCODE")) {
            List<?> fields = (List<?>) library;
            String code = String.valueOf(fields.get(fields.indexOf("library_code") + 1));
            if (code.contains(text)) {
                command("FUNCTION", "LOAD", "REPLACE", code.replace(text, replacement));
            } else if (!code.contains(replacement)) {
                throw new IllegalStateException("a loaded library no longer says " + text.strip());
            }
        }
    }

    /** Deletes every key (between tests that share the server). */
    public void flushAll() {
        command("FLUSHALL");
    }

    /** Kills the server: it is gone until the JVM ends (used to test an unreachable Redis). */
    @Override
    public void close() {
        stopProcess(false);
        deleteDirectory();
    }

    private void stopProcess(boolean forcibly) {
        if (process != null) {
            if (forcibly) {
                process.destroyForcibly();
            } else {
                process.destroy();
            }
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private void awaitPing() {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited at start: " + log());
            }
            try {
                if ("PONG".equals(command("PING"))) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            sleep(20);
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                + START_TIMEOUT_MILLIS + " ms: " + log());
    }

    private String log() {
        try {
            Path log = directory.resolve("redis.log");
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private static Process launch(String executable, int port, Path directory, List<String> extraArguments) {
        List<String> command = new ArrayList<>(List.of(executable, "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", directory.toString(),
                "--logfile", "redis.log"));
        command.addAll(extraArguments);
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    /**
     * The redis-server to run: the {@code ordo.redis.server} system property (a measurement that runs the
     * server under a profiler sets it), {@code ORDO_REDIS_SERVER}, else the PATH's, else Debian's.
     */
    static String executable() {
        String configured = System.getProperty("ordo.redis.server", System.getenv("ORDO_REDIS_SERVER"));
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(dir, "redis-server");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        File debian = new File("/usr/bin/redis-server");
        if (debian.canExecute()) {
            return debian.getPath();
        }
        throw new IllegalStateException("redis-server is not installed (not on PATH, not /usr/bin/redis-server):"
                + " the Redis tests need it. Install it (apt-get install redis-server) or set ORDO_REDIS_SERVER.");
    }

    /** A free loopback port from the ephemeral range, never the shared Redis's. */
    public static int freePort() {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (port != SHARED_PORT) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free loopback port", e);
            }
        }
        throw new IllegalStateException("no free loopback port");
    }

    private static Path tempDirectory() {
        try {
            return Files.createTempDirectory("ordo-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void deleteDirectory() {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }

    /** The few lines of RESP2 a test needs. */
    private static final class Resp {
        static Object call(Socket socket, String... arguments) throws IOException {
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String argument : arguments) {
                byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write(request.toByteArray());
            out.flush();
            return read(socket.getInputStream());
        }

        private static Object read(InputStream in) throws IOException {
            int type = in.read();
            String line = line(in);
            switch (type) {
                case '+':
                    return line;
                case '-':
                    throw new IllegalStateException(line);
                case ':':
                    return Long.parseLong(line);
                case '$': {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    byte[] bytes = in.readNBytes(length + 2);
                    return new String(bytes, 0, length, StandardCharsets.UTF_8);
                }
                case '*': {
                    int count = Integer.parseInt(line);
                    if (count < 0) {
                        return null;
                    }
                    List<Object> items = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        items.add(read(in));
                    }
                    return items;
                }
                default:
                    throw new IOException("unexpected RESP type " + type + " " + line);
            }
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != '\r') {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                buffer.write(c);
            }
            in.read(); // '\n'
            return buffer.toString(StandardCharsets.UTF_8);
        }
    }
}
