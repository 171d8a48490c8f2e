package io.ordo.ports;

/** Keeping the queue healthy: what a worker's reaper runs (see {@link TaskStore} for errors). */
public interface QueueMaintenance extends QueueBound {
    /** Returns the tasks of dead consumers (and of timed-out processing) to their partitions. */
    ReclaimReport reclaim();

    /**
     * Publishes the task of every slot of the queue's schedules that has fallen due by the store's clock
     * (docs/semantics.md, "Schedules"), under the misfire policy of each. A slot's task has an id made of
     * the schedule's and the slot's, and a schedule's slots are handled at most once however many callers
     * fire at once: any number of workers may run it.
     */
    ScheduleFiring fireDueSchedules();
}
