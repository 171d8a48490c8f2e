package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import static java.nio.charset.StandardCharsets.UTF_8;

/** What the fault drills share: worker arguments, tasks, waiting for a queue to drain, the figures line. */
final class Drill {
    /** Marks a payload the workers crash on ({@code --crash-on}). */
    static final String POISON = "POISON-PILL";
    /** Marks a payload whose handler never returns ({@code --hang-on}). */
    static final String HANG = "HANG-FOREVER";

    private Drill() {
    }

    /** {@code ordo work} on the queue with the journal, the drill markers and {@code more}. */
    static List<String> work(RedisClient client, String uri, String queue, Journal journal, String... more) {
        List<String> args = new ArrayList<>(List.of("work", "--backend", client.backend(), "--redis", uri, "--queue", queue,
                "--journal", journal.file().toString(), "--crash-on", POISON, "--hang-on", HANG, "--consumer", "drill"));
        args.addAll(List.of(more));
        return args;
    }

    /** A task whose payload carries its id and, if given, a marker. */
    static NewTask task(Partition partition, String id, String marker) {
        String payload = "{\"id\":\"" + id + "\"" + (marker == null ? "" : ",\"drill\":\"" + marker + "\"") + "}";
        return NewTask.builder(partition, payload.getBytes(UTF_8)).id(id).build();
    }

    /** Runs {@code ordo settings} on the queue, as an operator would, and checks it succeeded. */
    static void settings(RedisClient client, String uri, String queue, String... settings) {
        List<String> args = new ArrayList<>(List.of("settings", "--backend", client.backend(), "--redis", uri, "--queue", queue));
        args.addAll(List.of(settings));
        try (OrdoProcess ordo = OrdoProcess.start(args.toArray(String[]::new))) {
            if (ordo.awaitExit() != 0) {
                throw new AssertionError("ordo settings failed: " + ordo.err());
            }
        }
    }

    /** Waits until nothing is waiting or in flight; how long that took. */
    static Duration awaitDrained(TaskStore store, Duration within, Supplier<String> whatWentOn) {
        long start = System.nanoTime();
        long deadline = start + within.toNanos();
        QueueStats stats = store.stats();
        while (stats.ready() + stats.delayed() + stats.inFlight() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the queue did not drain within " + within + ": " + stats + "\n" + whatWentOn.get());
            }
            OrdoProcess.pause(100);
            stats = store.stats();
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Waits until {@code count} reaches {@code expected} or the time is up; the last count either way. */
    static long awaitCount(Duration within, long expected, java.util.function.LongSupplier count) {
        long deadline = System.nanoTime() + within.toNanos();
        long seen = count.getAsLong();
        while (seen < expected && System.nanoTime() < deadline) {
            OrdoProcess.pause(100);
            seen = count.getAsLong();
        }
        return seen;
    }

    /** A fresh journal under target/drills, kept after the run for a look at what happened. */
    static Journal newJournal(String name) {
        try {
            Path directory = Files.createDirectories(Path.of("target", "drills"));
            Path file = directory.resolve(name + ".journal");
            Files.deleteIfExists(file);
            Files.createFile(file);
            return new Journal(file.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line of figures, as the build log shows it. */
    static void figures(String format, Object... args) {
        System.out.println("[figures] " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    /** A duration as people write it, {@code 90s}, {@code 10m}, {@code 2h}, or ISO {@code PT10M}; fails naming the property. */
    static Duration duration(String property, String text) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m|h)").matcher(text.trim());
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(property + ": '" + text + "' is not a duration (use e.g. 90s, 10m, 2h or PT10M)");
        }
    }

    static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
