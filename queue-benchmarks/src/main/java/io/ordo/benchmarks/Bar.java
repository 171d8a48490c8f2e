package io.ordo.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The bar of docs/benchmarks.md ("Workloads and the bar"), judged on each Ordo store's medians in this run. */
final class Bar {
    static final double P2_TASKS_PER_SECOND = 100_000;
    static final double P2_CPU_MICROS = 7.5;
    /** A publish to a queue with 3 consumer groups costs the server at most this many times a plain one (P2). */
    static final double G1_CPU_TIMES_P2 = 1.5;
    static final double C1_TASKS_PER_SECOND = 50_000;
    static final double C1_CPU_MICROS = 12;
    static final double C1_TIMES_STREAMS = 0.5;
    static final double C1W_TIMES_C1 = 0.8;
    static final double C2_TIMES_C1 = 0.7;
    static final double C3_MOST_TIMES_FEWEST = 0.9;
    static final double L1_P99_MILLIS = 2;
    /** L2 holds its rate when it publishes 99% of it: the schedule's last call ends a little after the time. */
    static final double L2_RATE_HELD = 0.99 * Mode.Sizes.L2_RATE;
    static final double L2_P99_MILLIS = 10;
    static final double M1_BYTES_PER_TASK = 220;
    /** What each consumer group beyond the first keeps per queued task (100-byte payload). */
    static final double M2_BYTES_PER_TASK_PER_GROUP = 60;
    static final double I1_COMMANDS_PER_SECOND = 3;

    private Bar() {
    }

    /**
     * One target on one store.
     *
     * @param met empty when the run did not measure what the target needs
     */
    record Line(String figure, String target, Contender store, String measured, Optional<Boolean> met) {
    }

    static List<Line> judge(Results results) {
        List<Line> lines = new ArrayList<>();
        for (Contender store : results.contenders()) {
            if (!store.isOrdo()) {
                continue;
            }
            lines.add(atLeast(results, store, "P2", "P2 publish by 100", P2_TASKS_PER_SECOND, "tasks/s"));
            lines.add(atMost(results, store, "P2.cpu", "P2 Redis CPU", P2_CPU_MICROS, "µs/task"));
            lines.add(timesOwnAtMost(results, store, "G1.cpu", "G1 Redis CPU, publish to 3 groups", "P2.cpu",
                    "P2 Redis CPU", G1_CPU_TIMES_P2));
            lines.add(atLeast(results, store, "C1", "C1 drain", C1_TASKS_PER_SECOND, "tasks/s"));
            lines.add(atMost(results, store, "C1.cpu", "C1 Redis CPU", C1_CPU_MICROS, "µs/task"));
            store.streamsPeer(results.contenders()).ifPresent(streams ->
                    lines.add(timesPeer(results, store, "C1", "C1 drain", streams, C1_TIMES_STREAMS)));
            lines.add(timesOwn(results, store, "C1W", "C1 through the runtime Worker", "C1", "the bare driver's C1",
                    C1W_TIMES_C1));
            lines.add(timesOwn(results, store, "C2", "C2 ordered drain", "C1", "C1", C2_TIMES_C1));
            lines.add(noViolations(results, store));
            lines.add(c3Flat(results, store));
            lines.add(atMost(results, store, "L1.p99", "L1 latency p99", L1_P99_MILLIS, "ms"));
            lines.add(atLeast(results, store, "L2.rate", "L2 rate held (20k/s)", L2_RATE_HELD, "tasks/s"));
            lines.add(atMost(results, store, "L2.p99", "L2 latency p99", L2_P99_MILLIS, "ms"));
            lines.add(atMost(results, store, "M1", "M1 memory", M1_BYTES_PER_TASK, "bytes/task"));
            lines.add(atMost(results, store, "M2", "M2 memory per extra group", M2_BYTES_PER_TASK_PER_GROUP,
                    "bytes/task"));
            lines.add(atMost(results, store, "I1", "I1 idle", I1_COMMANDS_PER_SECOND, "commands/s"));
        }
        return lines;
    }

    private static Line atLeast(Results results, Contender store, String id, String label, double target, String unit) {
        String wanted = "≥ " + plain(target) + " " + unit;
        return results.figure(id).flatMap(f -> results.median(f, store).map(v -> new Line(label, wanted, store,
                f.format(v), Optional.of(v >= target)))).orElse(unmeasured(label, wanted, store));
    }

    private static Line atMost(Results results, Contender store, String id, String label, double target, String unit) {
        String wanted = "≤ " + plain(target) + " " + unit;
        return results.figure(id).flatMap(f -> median(results, f, store).map(v -> new Line(label, wanted, store,
                f.format(v), Optional.of(v <= target)))).orElse(unmeasured(label, wanted, store));
    }

    /** The store's median; for a server-side figure measured on the Lettuce twin only, the twin's. */
    private static Optional<Double> median(Results results, Figure figure, Contender store) {
        Optional<Double> own = results.median(figure, store);
        if (own.isPresent() || !BenchRun.SERVER_SIDE.contains(figure.workload())) {
            return own;
        }
        return store.lettuceTwin().flatMap(twin -> results.median(figure, twin));
    }

    private static Line timesPeer(Results results, Contender store, String id, String label, Contender peer,
                                  double times) {
        String wanted = "≥ " + plain(times) + "× " + peer.label();
        return results.figure(id).flatMap(f -> results.ratio(f, store, peer).map(r -> new Line(label, wanted, store,
                times(r), Optional.of(r >= times)))).orElse(unmeasured(label, wanted, store));
    }

    /** One of the store's figures against another of its own in the same run, e.g. C2 against C1. */
    private static Line timesOwn(Results results, Contender store, String id, String label, String baseId,
                                 String baseLabel, double times) {
        return ownRatio(results, store, id, label, baseId, baseLabel, times, Figure.Better.HIGHER);
    }

    /** As {@link #timesOwn} for a cost, which must stay under the bound: e.g. G1's Redis CPU against P2's. */
    private static Line timesOwnAtMost(Results results, Contender store, String id, String label, String baseId,
                                       String baseLabel, double times) {
        return ownRatio(results, store, id, label, baseId, baseLabel, times, Figure.Better.LOWER);
    }

    private static Line ownRatio(Results results, Contender store, String id, String label, String baseId,
                                 String baseLabel, double times, Figure.Better better) {
        boolean higher = better == Figure.Better.HIGHER;
        String wanted = (higher ? "≥ " : "≤ ") + plain(times) + "× " + baseLabel;
        Optional<Double> figure = results.figure(id).flatMap(f -> results.median(f, store));
        Optional<Double> base = results.figure(baseId).flatMap(f -> results.median(f, store));
        return figure.flatMap(value -> base.map(of -> new Line(label, wanted, store, times(value / of),
                Optional.of(higher ? value / of >= times : value / of <= times))))
                .orElse(unmeasured(label, wanted, store));
    }

    private static Line noViolations(Results results, Contender store) {
        String wanted = "0 order violations";
        return results.figure(Figure.C2_VIOLATIONS.id()).map(f -> {
            double worst = results.samples(f, store).stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            return new Line("C2 order", wanted, store, f.format(worst), Optional.of(worst == 0));
        }).orElse(unmeasured("C2 order", wanted, store));
    }

    /** The most partitions measured against the fewest. */
    private static Line c3Flat(Results results, Contender store) {
        List<Figure> c3 = results.figures().stream().filter(f -> f.workload() == Workload.C3).toList();
        String wanted = "most ≥ " + plain(C3_MOST_TIMES_FEWEST) + "× fewest partitions";
        if (c3.size() < 2) {
            return unmeasured("C3 partitions", wanted, store);
        }
        Figure fewest = c3.get(0);
        Figure most = c3.get(c3.size() - 1);
        return median(results, most, store).flatMap(m -> median(results, fewest, store).map(f -> new Line(
                "C3 " + partitions(most) + " / " + partitions(fewest) + " partitions", wanted, store,
                times(m / f), Optional.of(m / f >= C3_MOST_TIMES_FEWEST))))
                .orElse(unmeasured("C3 partitions", wanted, store));
    }

    private static String partitions(Figure c3) {
        return Figure.count(Integer.parseInt(c3.id().substring("C3.".length())));
    }

    private static Line unmeasured(String figure, String target, Contender store) {
        return new Line(figure, target, store, "not measured", Optional.empty());
    }

    static String times(double ratio) {
        return String.format(Locale.ROOT, ratio >= 10 ? "%.0f×" : "%.2f×", ratio);
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
