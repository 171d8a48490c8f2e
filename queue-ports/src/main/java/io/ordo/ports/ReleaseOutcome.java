package io.ordo.ports;

/** What release did with one task. */
public enum ReleaseOutcome {
    /** Back in its partition at its original position, at once; the delivery does not count as an attempt. */
    RELEASED,
    /**
     * Its cancellation was asked while it was held ({@link CancelOutcome#CANCEL_REQUESTED}): it is deleted,
     * not retried nor dead-lettered, and its ordered partition goes on.
     */
    CANCELLED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
