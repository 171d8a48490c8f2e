package io.ordo.runtime.worker;

import io.ordo.domain.Lease;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A task the worker holds. Its state changes by compare-and-set, so exactly one of the handler
 * thread (start, then settle) and shutdown (release) decides what happens to it.
 */
final class HeldTask {
    enum State { QUEUED, RUNNING, DONE }

    final Lease lease;
    final Incarnation incarnation;
    private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);

    HeldTask(Lease lease, Incarnation incarnation) {
        this.lease = lease;
        this.incarnation = incarnation;
    }

    /** The handler thread may run it: nobody released it first. */
    boolean start() {
        return state.compareAndSet(State.QUEUED, State.RUNNING);
    }

    /** Its handler finished and the worker may settle it: shutdown did not release it meanwhile. */
    boolean finishRunning() {
        return state.compareAndSet(State.RUNNING, State.DONE);
    }

    /** Takes a task whose handler outlived the grace period, to return it. */
    boolean claimRunning() {
        return state.compareAndSet(State.RUNNING, State.DONE);
    }

    /** Takes a task that never started, to return it or settle it with its batch. */
    boolean claimQueued() {
        return state.compareAndSet(State.QUEUED, State.DONE);
    }

    boolean isRunning() {
        return state.get() == State.RUNNING;
    }
}
