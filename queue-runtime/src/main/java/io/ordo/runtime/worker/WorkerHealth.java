package io.ordo.runtime.worker;

/**
 * A worker's health for probes. {@code live}: the worker runs (also while the backend is down:
 * restarting would not help). {@code ready}: it runs and the backend answers.
 */
public record WorkerHealth(WorkerState state, boolean backendReachable, int heldTasks) {
    public boolean live() {
        return state != WorkerState.STOPPED && state != WorkerState.FAILED;
    }

    public boolean ready() {
        return state == WorkerState.RUNNING && backendReachable;
    }

    /** One line for a probe's body. */
    public String describe() {
        return "state " + state.name().toLowerCase(java.util.Locale.ROOT) + ", backend "
                + (backendReachable ? "reachable" : "unreachable") + ", " + heldTasks + " held";
    }
}
