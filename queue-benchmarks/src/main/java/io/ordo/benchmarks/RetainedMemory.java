package io.ordo.benchmarks;

/**
 * One M3 pass's readings of INFO memory ({@code used_memory}): on the empty queue, once its tasks are queued,
 * and once every one of them is kept completed. Reading the queued state in the same pass gives the increment
 * a completed task costs over the same task waiting (M1's figure), free of the noise between two runs.
 *
 * @param empty     before the first publish (the queue's settings already written)
 * @param queued    every task published, none taken
 * @param completed every task acked and kept as completed
 * @param tasks     how many tasks the pass published and completed
 */
record RetainedMemory(long empty, long queued, long completed, long tasks) {
    RetainedMemory {
        if (tasks <= 0) {
            throw new IllegalArgumentException("a pass completes at least one task, not " + tasks);
        }
    }

    /** What the server keeps per completed task, in all. */
    double perCompletedTask() {
        return (completed - empty) / (double) tasks;
    }

    /** What it kept per task while the tasks waited: M1's figure at this count. */
    double perQueuedTask() {
        return (queued - empty) / (double) tasks;
    }

    /** What a completed task keeps beyond what it kept while it waited (negative when it keeps less). */
    double overQueued() {
        return (completed - queued) / (double) tasks;
    }
}
