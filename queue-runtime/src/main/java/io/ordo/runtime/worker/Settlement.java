package io.ordo.runtime.worker;

/** How a task the worker held left its hands. */
public enum Settlement {
    /** The handler succeeded and the ack went through. */
    PROCESSED,
    /** Back in the queue to be tried again after a delay. */
    RETRIED,
    /** Back in the queue unprocessed, its partition blocked for a while; the attempt did not count. */
    RATE_LIMITED,
    /** Not this worker's (no handler for its type): back in the queue unprocessed, the attempt not counted. */
    PASSED_ON,
    /** Out of attempts, failed explicitly, or its payload could not be decoded: now a dead letter. */
    DEAD_LETTERED,
    /** Never ran: an earlier task of its ordered batch was returned and took it along (SPEC rule 5). */
    RETURNED_WITH_BATCH,
    /** Never ran (or outlived the grace period): returned at shutdown, the attempt not counted. */
    RELEASED,
    /** The queue no longer counted the task as this worker's (reclaimed, or returned with its batch). */
    LEASE_LOST,
    /** Not started because the worker could not renew its lease while the backend was unreachable. */
    ABANDONED,
    /**
     * Held past its deadline (its own processing timeout, the queue's, or an extension): the worker gave up
     * on it (its handler interrupted, its outcome dropped) and the reaper takes it back, the attempt counted.
     */
    TIMED_OUT,
    /**
     * Its cancellation was asked while the worker held it: given back, the store deleted it, neither
     * retried nor dead-lettered (docs/task-control.md; how its handler stopped: {@link CancelledRun}).
     */
    CANCELLED
}
