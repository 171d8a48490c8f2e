package io.ordo.ports;

/** What became of a task, as the queue's event log tells it (docs/task-control.md, "Results and events"). */
public enum TaskEventType {
    /** Acked: its work is done. */
    COMPLETED,
    /** A delivery failed and the task waits for another: a reject that returns it, or reclaim taking it back. */
    FAILED,
    /** Out of attempts, or failed for good: now a dead letter. */
    DEAD_LETTERED,
    /** Cancelled: deleted while waiting or dead, or when it left the hands of a holder asked to stop it. */
    CANCELLED
}
