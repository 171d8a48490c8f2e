package io.ordo.ports;

/** What release did with one task. */
public enum ReleaseOutcome {
    /** Back in its partition at its original position, at once; the delivery does not count as an attempt. */
    RELEASED,
    /** The consumer no longer holds the task: nothing changed. */
    LEASE_LOST
}
