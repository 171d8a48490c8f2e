package io.ordo.ports;

/** What a lease extension did with one task. */
public enum ExtendOutcome {
    /** The task's deadline is now the time asked for. */
    EXTENDED,
    /** Its cancellation was asked: the lease is not extended, the handler should stop. */
    CANCEL_REQUESTED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
