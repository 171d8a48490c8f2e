package io.ordo.benchmarks;

import java.util.Locale;

/**
 * One number a workload measures, e.g. "C1 tasks/s" or "L1 p99". Figures are compared by id; the
 * C3 and latency figures are made per partition count and percentile.
 *
 * @param better whether a higher or a lower value is the better one (ratios read accordingly)
 */
record Figure(String id, Workload workload, String label, Unit unit, Better better) {
    enum Unit {
        TASKS_PER_SECOND("tasks/s"), MICROS_PER_TASK("µs/task"), MILLIS("ms"), BYTES_PER_TASK("bytes/task"), COMMANDS_PER_SECOND("commands/s"),
        COUNT("count");

        private final String text;

        Unit(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }
    }

    enum Better { HIGHER, LOWER }

    static final Figure P1_RATE = new Figure("P1", Workload.P1, "P1 publish one per call", Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure P2_RATE = new Figure("P2", Workload.P2, "P2 publish by 100", Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure G1_RATE = new Figure("G1", Workload.G1, "G1 publish by 100 to 3 consumer groups",
            Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure C1_RATE = new Figure("C1", Workload.C1, "C1 drain", Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure C1W_RATE = new Figure("C1W", Workload.C1W, "C1W drain through the runtime Worker",
            Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure C2_RATE = new Figure("C2", Workload.C2, "C2 ordered drain", Unit.TASKS_PER_SECOND, Better.HIGHER);
    static final Figure C2_VIOLATIONS = new Figure("C2.violations", Workload.C2, "C2 order violations", Unit.COUNT,
            Better.LOWER);
    static final Figure M1_BYTES = new Figure("M1", Workload.M1, "M1 Redis memory per queued task",
            Unit.BYTES_PER_TASK, Better.LOWER);
    /** (bytes with 3 groups − bytes with 1 group) ÷ 2 ÷ tasks: what each further group keeps per task. */
    static final Figure M2_BYTES = new Figure("M2", Workload.M2, "M2 Redis memory per task per extra consumer group",
            Unit.BYTES_PER_TASK, Better.LOWER);
    /** M3: (INFO memory once every task is kept completed − before the first publish) ÷ tasks, 100-byte results. */
    static final Figure M3_BYTES = new Figure("M3", Workload.M3,
            "M3 Redis memory per completed task kept with a 100-byte result", Unit.BYTES_PER_TASK, Better.LOWER);
    /** M3's completed task over the same task queued, read in the same pass: what keeping it adds to M1's figure. */
    static final Figure M3_OVER_QUEUED = new Figure("M3.over", Workload.M3,
            "M3 100-byte result: the completed task over the same task queued", Unit.BYTES_PER_TASK, Better.LOWER);
    /** As {@link #M3_BYTES} with plain acks: a completed task that keeps an empty result. */
    static final Figure M3_EMPTY_BYTES = new Figure("M3.empty", Workload.M3,
            "M3 Redis memory per completed task kept with an empty result (plain ack)", Unit.BYTES_PER_TASK,
            Better.LOWER);
    static final Figure M3_EMPTY_OVER_QUEUED = new Figure("M3.empty.over", Workload.M3,
            "M3 empty result: the completed task over the same task queued", Unit.BYTES_PER_TASK, Better.LOWER);
    static final Figure I1_COMMANDS = new Figure("I1", Workload.I1, "I1 idle worker", Unit.COMMANDS_PER_SECOND,
            Better.LOWER);

    /** The tasks/s of a drain of pre-loaded tasks: C1, C1W or C2. */
    static Figure drainRate(Workload workload) {
        return switch (workload) {
            case C1 -> C1_RATE;
            case C1W -> C1W_RATE;
            case C2 -> C2_RATE;
            default -> throw new IllegalArgumentException(workload + " is not a drain of pre-loaded tasks");
        };
    }

    static Figure c3(int partitions) {
        return new Figure("C3." + partitions, Workload.C3, "C3 drain, " + count(partitions) + " partitions",
                Unit.TASKS_PER_SECOND, Better.HIGHER);
    }

    /** @param percentile e.g. "p99" */
    static Figure latency(Workload workload, String percentile) {
        return new Figure(workload + "." + percentile, workload, workload + " latency " + percentile, Unit.MILLIS,
                Better.LOWER);
    }

    static Figure publishedRate(Workload workload) {
        return new Figure(workload + ".rate", workload, workload + " publish rate reached", Unit.TASKS_PER_SECOND,
                Better.HIGHER);
    }

    /**
     * Redis CPU time (user + system) per task in the measured part: what the server spends on a task,
     * which the load of a shared machine barely moves, unlike rates and latencies.
     */
    static Figure serverCpu(Workload workload) {
        return new Figure(workload + ".cpu", workload, workload + " Redis CPU per task", Unit.MICROS_PER_TASK,
                Better.LOWER);
    }

    /** A value as people read it: 52.3k, 1.84, 212. */
    String format(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return switch (unit) {
            case TASKS_PER_SECOND -> value >= 10_000 ? String.format(Locale.ROOT, "%.1fk", value / 1000)
                    : String.format(Locale.ROOT, "%,.0f", value);
            case MICROS_PER_TASK -> String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
            case MILLIS -> value >= 100 ? String.format(Locale.ROOT, "%.0f", value)
                    : String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.2f", value);
            case BYTES_PER_TASK, COUNT -> String.format(Locale.ROOT, "%,.0f", value);
            case COMMANDS_PER_SECOND -> String.format(Locale.ROOT, "%.1f", value);
        };
    }

    /** 10, 10k, 1M. */
    static String count(int number) {
        if (number >= 1_000_000 && number % 1_000_000 == 0) {
            return number / 1_000_000 + "M";
        }
        if (number >= 1_000 && number % 1_000 == 0) {
            return number / 1_000 + "k";
        }
        return Integer.toString(number);
    }
}
