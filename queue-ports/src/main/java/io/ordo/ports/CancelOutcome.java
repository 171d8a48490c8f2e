package io.ordo.ports;

/** What cancel did with one id. */
public enum CancelOutcome {
    /** The task was waiting (or dead) and is deleted. */
    CANCELLED,
    /** The task is being processed: it cannot be cancelled, nothing changed. */
    IN_FLIGHT,
    /** No task with that id. */
    UNKNOWN
}
