package io.ordo.ports;

/** What fail did with one id. */
public enum FailOutcome {
    /** Now a dead letter carrying the reason. */
    DEAD_LETTERED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
