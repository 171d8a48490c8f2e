package io.ordo.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * How big each workload is. FULL runs the counts docs/benchmarks.md gives (C3 drains 50,000 of each pre-loaded
 * million per repetition; M2 queues 200,000 tasks, 800,000 copies in groups in all, where M1 queues a million;
 * M3 queues and completes 200,000 twice per repetition, with 100-byte results and with empty ones: BullMQ
 * drains a million in minutes);
 * QUICK scales the counts and durations down so the whole run stays under two minutes (its C3 "very many" is
 * the queue size, not a million).
 */
enum Mode {
    QUICK(new Sizes(0.5, 10_000, 10_000, 24_000, List.of(10, 1_000, 24_000), 5_000, 1.0, 0.5, 20_000, 20_000,
            5_000, 3, 1_000)),
    FULL(new Sizes(2, 200_000, 200_000, 1_000_000, List.of(10, 10_000, 1_000_000), 50_000, 10, 10, 1_000_000,
            200_000, 200_000, 10, 5_000));

    private final Sizes sizes;

    Mode(Sizes sizes) {
        this.sizes = sizes;
    }

    Sizes sizes() {
        return sizes;
    }

    /**
     * @param publishSeconds   P1: how long one repetition publishes
     * @param publishTasks     P2, G1: tasks per repetition
     * @param drainTasks       C1, C2: tasks pre-loaded and drained per repetition
     * @param c3QueueTasks     C3: tasks pre-loaded once per partition count; each repetition drains a part
     * @param c3Partitions     C3: the partition counts
     * @param c3DrainTasks     C3: tasks drained per repetition
     * @param l1Seconds        L1: how long one repetition publishes
     * @param l2Seconds        L2: the same
     * @param memoryTasks      M1: tasks queued
     * @param groupMemoryTasks M2: tasks queued on the queue with 1 group, then on the queue with 3
     * @param resultMemoryTasks M3: tasks queued and then kept completed, in each of its two passes
     * @param idleSeconds      I1: how long the idle worker is watched, one window per repetition
     * @param warmUpTasks      published and drained once per contender before anything is measured
     */
    record Sizes(double publishSeconds, int publishTasks, int drainTasks, int c3QueueTasks, List<Integer> c3Partitions,
                 int c3DrainTasks, double l1Seconds, double l2Seconds, int memoryTasks, int groupMemoryTasks,
                 int resultMemoryTasks, double idleSeconds, int warmUpTasks) {
        static final int PARTITIONS = 1_000;
        static final int PUBLISH_BATCH = 100;
        /** G1's consumer groups; M2 compares a queue with 1 group with one with this many. */
        static final int GROUPS = 3;
        static final int PRELOAD_BATCH = 1_000;
        static final int HANDLER_THREADS = 8;
        static final int PREFETCH = 32;
        static final int L1_RATE = 2_000;
        static final int L2_RATE = 20_000;
        /** M3: how long a completed task is kept, far longer than a pass takes, so every one is still there. */
        static final Duration RESULT_RETENTION = Duration.ofHours(1);
    }
}
