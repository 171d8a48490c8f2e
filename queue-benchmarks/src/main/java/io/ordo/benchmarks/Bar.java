package io.ordo.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The bar of BENCHMARKS.md, judged on each Ordo store's medians in this run. */
final class Bar {
    static final double P2_TASKS_PER_SECOND = 100_000;
    static final double P2_TIMES_BULLMQ = 8;
    static final double C1_TASKS_PER_SECOND = 50_000;
    static final double C1_TIMES_BULLMQ = 4;
    static final double C1_TIMES_STREAMS = 0.6;
    static final double C2_TIMES_C1 = 0.7;
    static final double C3_MOST_TIMES_FEWEST = 0.8;
    static final double L1_P99_MILLIS = 5;
    static final double M1_BYTES_PER_TASK = 220;
    static final double I1_COMMANDS_PER_SECOND = 5;

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
            lines.add(timesPeer(results, store, "P2", "P2 publish by 100", Contender.BULLMQ, P2_TIMES_BULLMQ));
            lines.add(atLeast(results, store, "C1", "C1 drain", C1_TASKS_PER_SECOND, "tasks/s"));
            lines.add(timesPeer(results, store, "C1", "C1 drain", Contender.BULLMQ, C1_TIMES_BULLMQ));
            store.streamsPeer(results.contenders()).ifPresent(streams ->
                    lines.add(timesPeer(results, store, "C1", "C1 drain", streams, C1_TIMES_STREAMS)));
            lines.add(c2AgainstC1(results, store));
            lines.add(noViolations(results, store));
            lines.add(c3Flat(results, store));
            lines.add(atMost(results, store, "L1.p99", "L1 latency p99", L1_P99_MILLIS, "ms"));
            lines.add(atMost(results, store, "M1", "M1 memory", M1_BYTES_PER_TASK, "bytes/task"));
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

    private static Line c2AgainstC1(Results results, Contender store) {
        String wanted = "≥ " + plain(C2_TIMES_C1) + "× C1";
        Optional<Double> c2 = results.figure("C2").flatMap(f -> results.median(f, store));
        Optional<Double> c1 = results.figure("C1").flatMap(f -> results.median(f, store));
        return c2.flatMap(two -> c1.map(one -> new Line("C2 ordered drain", wanted, store, times(two / one),
                Optional.of(two / one >= C2_TIMES_C1)))).orElse(unmeasured("C2 ordered drain", wanted, store));
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
