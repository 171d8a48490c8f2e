package io.ordo.runtime.worker;

/** Where a worker is in its life. */
public enum WorkerState {
    /** Built, not started. */
    NEW,
    /** Fetching and handling tasks. */
    RUNNING,
    /** Shutting down: no more fetching; running tasks finish, the rest go back. */
    STOPPING,
    /** Stopped: holds nothing, runs nothing. */
    STOPPED,
    /** The fetch loop died of an unexpected error; {@link Worker#stop()} still returns what is held. */
    FAILED
}
