package io.ordo.benchmarks;

import java.util.Set;

/**
 * What a subject needs to run a workload: the server, the sizes, how many repetitions a
 * repeating-inside workload makes, and a hook to say when the measured part begins (the profile's
 * command statistics start there, so a pre-load does not count).
 */
record BenchContext(BenchRedis redis, Mode.Sizes sizes, int repetitions, Runnable measuringStarts) {
    private static final Set<Workload> REPEAT_INSIDE = Set.of(Workload.C3, Workload.I1);

    /**
     * C3 pre-loads once per partition count and drains a part per repetition; I1 counts consecutive
     * windows of one idle worker. The others run once per call.
     */
    static boolean repeatsInside(Workload workload) {
        return REPEAT_INSIDE.contains(workload);
    }

    void startMeasuring() {
        measuringStarts.run();
    }
}
