package io.ordo.ports;

/** What ack did with one id. */
public enum AckOutcome {
    /** The task is done and gone. */
    ACKED,
    /** The consumer no longer holds the task (reclaimed, returned with its batch, or unknown): nothing changed. */
    LEASE_LOST
}
