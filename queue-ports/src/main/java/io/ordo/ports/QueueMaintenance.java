package io.ordo.ports;

/** Keeping the queue healthy: what a worker's reaper runs (see {@link TaskStore} for errors). */
public interface QueueMaintenance extends QueueBound {
    /** Returns the tasks of dead consumers (and of timed-out processing) to their partitions. */
    ReclaimReport reclaim();
}
