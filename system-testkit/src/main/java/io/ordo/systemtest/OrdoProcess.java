package io.ordo.systemtest;


import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * {@code ordo} as a child process on this test run's class path (target/classes and every
 * dependency), with its stdout and stderr collected line by line, so a test can send it signals.
 * The class path must hold app-cli (a test dependency of the module using this).
 */
public final class OrdoProcess implements AutoCloseable {
    public static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** By name, not by class: this kit sits below app-cli, so app-cli's own tests can use it too. */
    private static final String CLI_MAIN_CLASS = "io.ordo.cli.OrdoCli";

    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private OrdoProcess(Process process) {
        this.process = process;
        this.outReader = collect(process.getInputStream(), out, "out");
        this.errReader = collect(process.getErrorStream(), err, "err");
    }

    public static OrdoProcess start(String... args) {
        return start(Map.of(), args);
    }

    /** Starts it with {@code environment} added to this process's environment. */
    public static OrdoProcess start(Map<String, String> environment, String... args) {
        return start(environment, "256m", args);
    }

    /** Starts it with at most {@code maxHeap} of heap ({@code -Xmx}), to show what fits in how much memory. */
    public static OrdoProcess startWithMaxHeap(String maxHeap, String... args) {
        return start(Map.of(), maxHeap, args);
    }

    /**
     * The command line that runs {@code ordo args} in a new JVM on this run's class path, with at most
     * {@code maxHeap} of heap; for tests that start the process their own way.
     */
    public static List<String> commandLine(String maxHeap, List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", // starts faster, fewer threads; these runs are short
                "-cp", System.getProperty("java.class.path"), CLI_MAIN_CLASS));
        command.addAll(args);
        return command;
    }

    private static OrdoProcess start(Map<String, String> environment, String maxHeap, String... args) {
        List<String> command = commandLine(maxHeap, List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            return new OrdoProcess(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public List<String> out() {
        return List.copyOf(out);
    }

    public List<String> err() {
        return List.copyOf(err);
    }

    /** Waits until a line of stdout matches; the line. */
    public String awaitOut(String what, Predicate<String> wanted) {
        return await(out, what, wanted);
    }

    /** Waits until a line of stderr matches; the line. */
    public String awaitErr(String what, Predicate<String> wanted) {
        return await(err, what, wanted);
    }

    /**
     * SIGTERM, as Kubernetes and {@code kill} send it. Through the process handle: {@code Process.destroy()}
     * would also close the pipes, and what the process prints while it stops would be lost.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    /** SIGKILL: the process ends at once; no shutdown hook, no last ack, as an OOM kill or a lost node. */
    public void kill() {
        process.toHandle().destroyForcibly();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the exit and for the last of its output; the exit code. */
    public int awaitExit() {
        try {
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("ordo did not exit within " + TIMEOUT + "; stderr: " + err);
            }
            outReader.join(TIMEOUT.toMillis());
            errReader.join(TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private String await(List<String> lines, String what, Predicate<String> wanted) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : lines) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            if (!process.isAlive() && !outReader.isAlive() && !errReader.isAlive()) {
                break;
            }
            pause(5);
        }
        throw new AssertionError("ordo never printed " + what + "; stdout: " + out + "; stderr: " + err);
    }

    private static Thread collect(InputStream stream, List<String> lines, String name) {
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        }, "ordo-" + name);
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
