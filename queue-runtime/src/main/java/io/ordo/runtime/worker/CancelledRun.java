package io.ordo.runtime.worker;

/**
 * How the run of a task whose cancellation was asked ended on this worker (docs/task-control.md), as
 * {@link WorkerListener#taskCancelled} tells. In every case the task is then given back and the store deletes it.
 */
public enum CancelledRun {
    /** It had not started: its handler never ran. */
    NOT_STARTED,
    /** Its handler returned (or threw) within the cancel grace, having seen {@link TaskContext#isCancelled()}. */
    STOPPED,
    /** Its handler was interrupted at the end of the grace and returned (or threw) soon after. */
    INTERRUPTED,
    /**
     * Its handler ignored the interrupt: the worker gave its thread up (a new one took its place) and will drop
     * whatever it returns, if it ever does.
     */
    ABANDONED
}
