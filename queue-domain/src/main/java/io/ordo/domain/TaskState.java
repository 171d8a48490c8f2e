package io.ordo.domain;

/**
 * Where a task is in its lifecycle. An acked or cancelled task is gone: it has no state, unless the queue keeps
 * results ({@link #COMPLETED}).
 */
public enum TaskState {
    /** In its partition and due: the next consume may take it. */
    PENDING,
    /** In its partition, not yet due (published with a delay, or waiting for a retry). */
    DELAYED,
    /** Delivered to a consumer and neither acked nor returned yet. */
    IN_FLIGHT,
    /** Out of attempts or failed explicitly; kept for inspection and redrive. */
    DEAD,
    /** Acked while the queue keeps results: kept, with its result, for the queue's {@code resultRetention}. */
    COMPLETED
}
