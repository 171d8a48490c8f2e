package io.ordo.ports;

/** What reject did with one task. */
public enum RejectOutcome {
    /** Back in its partition at its original position, due after the delay; the attempt counts. */
    RETURNED,
    /** Out of attempts: now a dead letter carrying the reason. */
    DEAD_LETTERED,
    /**
     * Not named in the call but after a rejected task in the same held ordered batch: returned
     * unprocessed, in order, and its attempt does not count (SPEC rule 5).
     */
    RETURNED_WITH_BATCH,
    /**
     * Its cancellation was asked while it was held ({@link CancelOutcome#CANCEL_REQUESTED}): it is deleted,
     * not retried nor dead-lettered, and its ordered partition goes on.
     */
    CANCELLED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
