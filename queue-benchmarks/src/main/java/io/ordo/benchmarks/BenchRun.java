package io.ordo.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run: one private redis-server, every contender opened on it, the workloads in order. Repetitions
 * are interleaved (each repetition runs every contender once, starting with a different one each
 * time) so a slow spell of the shared machine hits all of them alike. The first repetition of each
 * workload on each contender leaves its INFO commandstats and SLOWLOG in the profile folder.
 */
final class BenchRun {
    /** Workloads whose figure is the server's alone: measured on one client when both are in the run. */
    static final Set<Workload> SERVER_SIDE = Set.of(Workload.C3, Workload.M1, Workload.M2, Workload.M3);

    private final Mode mode;
    private final int repetitions;
    private final List<Workload> workloads;
    private final List<Contender> contenders;
    private final Path bullmqDirectory;
    private final Path profileDirectory;
    private final long slowlogMicros;
    private final long started = System.nanoTime();

    record Outcome(Results results, Map<String, String> machine, double seconds) {
    }

    BenchRun(Mode mode, int repetitions, List<Workload> workloads, List<Contender> contenders, Path bullmqDirectory,
             Path profileDirectory, long slowlogMicros) {
        this.mode = mode;
        this.repetitions = repetitions;
        this.workloads = workloads;
        this.contenders = contenders;
        this.bullmqDirectory = bullmqDirectory;
        this.profileDirectory = profileDirectory;
        this.slowlogMicros = slowlogMicros;
    }

    Outcome execute() {
        Results results = new Results(contenders);
        try (BenchRedis redis = BenchRedis.start()) {
            redis.logSlowerThan(Duration.ofNanos(slowlogMicros * 1000));
            log("redis-server " + redis.version() + " on 127.0.0.1:" + redis.port() + ", " + mode.name().toLowerCase()
                    + " mode, " + repetitions + " repetitions");
            Map<Contender, Subject> subjects = open(redis);
            try {
                String bullmq = subjects.get(Contender.BULLMQ) instanceof BullMqSubject b ? b.version() : null;
                Map<String, String> machine = Machine.describe(redis, bullmq);
                machine.put("Java driver's acks", DrainWorker.ackEachTask
                        ? "one call per task, from its handler (--ack-each)"
                        : "on the next fetch (ack these, then take up to N), two fetches in flight");
                BenchContext warmUp = new BenchContext(redis, mode.sizes(), repetitions, () -> { });
                subjects.forEach((contender, subject) -> {
                    log("warming up " + contender.label());
                    redis.flushAll();
                    subject.warmUp(warmUp);
                });
                for (Workload workload : workloads) {
                    runWorkload(workload, subjects, redis, results);
                }
                return new Outcome(results, machine, secondsSinceStart());
            } finally {
                subjects.values().forEach(Subject::close);
            }
        }
    }

    private Map<Contender, Subject> open(BenchRedis redis) {
        Map<Contender, Subject> subjects = new LinkedHashMap<>();
        try {
            for (Contender contender : contenders) {
                subjects.put(contender, contender.open(redis, bullmqDirectory));
            }
            return subjects;
        } catch (RuntimeException e) {
            subjects.values().forEach(Subject::close);
            throw e;
        }
    }

    private void runWorkload(Workload workload, Map<Contender, Subject> subjects, BenchRedis redis, Results results) {
        List<Contender> able = new ArrayList<>();
        subjects.forEach((contender, subject) -> {
            boolean twinMeasures = SERVER_SIDE.contains(workload)
                    && contender.lettuceTwin().filter(subjects::containsKey).isPresent();
            if (subject.supports(workload) && !twinMeasures) {
                able.add(contender);
            }
        });
        if (BenchContext.repeatsInside(workload)) {
            for (Contender contender : able) {
                runOnce(workload, contender, subjects.get(contender), redis, results, "", true);
            }
            return;
        }
        for (int rep = 0; rep < repetitions; rep++) {
            List<Contender> order = new ArrayList<>(able);
            Collections.rotate(order, -rep);
            for (Contender contender : order) {
                runOnce(workload, contender, subjects.get(contender), redis, results,
                        " rep " + (rep + 1) + "/" + repetitions, rep == 0);
            }
        }
    }

    private void runOnce(Workload workload, Contender contender, Subject subject, BenchRedis redis, Results results,
                         String repetition, boolean profile) {
        redis.flushAll();
        double[] cpuAtStart = {Double.NaN};
        BenchContext context = new BenchContext(redis, mode.sizes(), repetitions, () -> {
            cpuAtStart[0] = redis.cpuSeconds();
            if (profile) {
                redis.resetStatistics();
            }
        });
        long start = System.nanoTime();
        Measurement measurement;
        try {
            measurement = subject.run(workload, context);
            if (measurement.tasks() > 0) {
                measurement.add(Figure.serverCpu(workload),
                        (redis.cpuSeconds() - cpuAtStart[0]) * 1e6 / measurement.tasks());
            }
        } catch (RuntimeException e) {
            measurement = new Measurement().check(workload + ": ran without error", false, String.valueOf(e));
            e.printStackTrace();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        results.add(contender, measurement);
        if (profile) {
            writeProfile(workload, contender, redis, seconds);
        }
        StringBuilder line = new StringBuilder(String.format("%-3s%-10s %-16s", workload, repetition,
                contender.label()));
        measurement.samples().forEach((figure, values) -> line.append("  ").append(figure.id()).append(' ')
                .append(String.join("/", values.stream().map(figure::format).toList())));
        measurement.checks().stream().filter(c -> !c.passed())
                .forEach(c -> line.append("  FAILED ").append(c.name()).append(": ").append(c.detail()));
        log(line.toString());
    }

    private void writeProfile(Workload workload, Contender contender, BenchRedis redis, double seconds) {
        String text = String.format("%s on %s, measured part and the rest of the call: %.2f s%n%n", workload,
                contender.label(), seconds)
                + "# SLOWLOG (slower than " + slowlogMicros + " us), the slowest\n" + redis.slowLog(20) + "\n"
                + redis.commandStats();
        try {
            Files.writeString(profileDirectory.resolve(workload + "-" + contender.cliName() + ".txt"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private double secondsSinceStart() {
        return (System.nanoTime() - started) / 1e9;
    }

    private void log(String message) {
        System.err.printf("[%4.0fs] %s%n", secondsSinceStart(), message);
    }
}
