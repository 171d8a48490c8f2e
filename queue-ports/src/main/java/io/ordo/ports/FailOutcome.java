package io.ordo.ports;

/** What fail did with one id. */
public enum FailOutcome {
    /** Now a dead letter carrying the reason. */
    DEAD_LETTERED,
    /**
     * Its cancellation was asked while it was held ({@link CancelOutcome#CANCEL_REQUESTED}): it is deleted,
     * not retried nor dead-lettered, and its ordered partition goes on.
     */
    CANCELLED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
