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

    /**
     * Deletes the dead letters past the queue's caps, oldest first: while there are more than
     * {@code deadLetterMaxCount}, or the oldest died {@code deadLetterMaxAge} ago or longer (docs/semantics.md,
     * "Dead letters kept within bounds"). A dead-lettering deletes a few of them itself; this deletes the rest
     * (letters that aged out, a cap lowered), in calls that each hold the store briefly. Nothing without caps.
     * Any number of workers may run it at once.
     *
     * @return how many this call deleted (counted in {@link QueueStats#deadLettersDroppedTotal()})
     */
    long trimDeadLetters();

    /**
     * Deletes the completed tasks kept past the queue's {@code resultRetention} (docs/task-control.md, "Results"),
     * as many as one bounded step allows per call on Redis, the store calling until none is left. Any number of
     * workers may run it at once.
     *
     * @return how many this call deleted
     */
    long expireCompleted();
}
