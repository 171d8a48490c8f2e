package io.ordo.ports;

/** What cancel did with one id. */
public enum CancelOutcome {
    /** The task was waiting (or dead) and is deleted. */
    CANCELLED,
    /**
     * The task is being processed: it is marked, and its holder learns so with its next heartbeat or fetch
     * (docs/task-control.md). It ends as cancelled when its holder gives it back or is reclaimed, not
     * retried nor dead-lettered; a holder that acks it first completes it.
     */
    CANCEL_REQUESTED,
    /** No task with that id. */
    UNKNOWN
}
