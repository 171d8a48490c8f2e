package io.ordo.ports;

/** What publish did with one task. */
public enum PublishOutcome {
    /** The task is in its partition now. */
    CREATED,
    /** A task with that id exists (or was acked within the dedup window): nothing changed. */
    DUPLICATE
}
