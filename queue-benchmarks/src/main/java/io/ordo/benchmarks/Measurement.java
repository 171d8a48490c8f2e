package io.ordo.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of a workload on one contender measured: samples per figure (one per repetition, or
 * several when the workload repeats itself inside one run, like C3, M1 and I1) and the correctness
 * checks it made on the way.
 */
final class Measurement {
    private final Map<Figure, List<Double>> samples = new LinkedHashMap<>();
    private final List<Check> checks = new ArrayList<>();
    private long tasks;

    /** A correctness finding: passed, or what went wrong. */
    record Check(String name, boolean passed, String detail) {
    }

    Measurement add(Figure figure, double value) {
        samples.computeIfAbsent(figure, f -> new ArrayList<>()).add(value);
        return this;
    }

    Measurement check(String name, boolean passed, String detail) {
        checks.add(new Check(name, passed, detail));
        return this;
    }

    /** How many tasks the measured part moved, for the server's CPU time per task (0: not reported). */
    Measurement tasks(long count) {
        tasks = count;
        return this;
    }

    long tasks() {
        return tasks;
    }

    Measurement addAll(Measurement other) {
        other.samples.forEach((figure, values) -> values.forEach(value -> add(figure, value)));
        checks.addAll(other.checks);
        tasks += other.tasks;
        return this;
    }

    Map<Figure, List<Double>> samples() {
        return samples;
    }

    List<Check> checks() {
        return checks;
    }
}
