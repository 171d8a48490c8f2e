package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A task the worker holds. Its state changes by compare-and-set, so exactly one of the handler
 * thread (start, then settle), shutdown (release) and a give-up (past its deadline, or a cancelled
 * task's handler that ignores its interrupt) decides what happens to it.
 */
final class HeldTask {
    enum State { QUEUED, RUNNING, DONE, GIVEN_UP }

    final Lease lease;
    final Incarnation incarnation;
    /** {@link #deadline}: nothing but the holder's death ends the lease. */
    static final long NO_DEADLINE = -1;

    /** When the fetch that leased it returned, on the worker's clock: the processing timeout counts from here. */
    final long leasedAt;
    private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);
    private Thread runner;
    private boolean threadReplaced;
    /** Its handler was told its cancellation was asked (docs/task-control.md). */
    private volatile boolean cancelRequested;
    /** Its handler was interrupted because it had not stopped within the cancel grace. */
    private boolean interruptedForCancel;
    /** The deadline its handler's last lease extension set, on the worker's clock, or {@link #NO_DEADLINE}. */
    private volatile long extendedUntil = NO_DEADLINE;
    /** What its handler last reported and no heartbeat has carried yet. */
    private final AtomicReference<Progress> unsentProgress = new AtomicReference<>();

    HeldTask(Lease lease, Incarnation incarnation, long leasedAt) {
        this.lease = lease;
        this.incarnation = incarnation;
        this.leasedAt = leasedAt;
    }

    /**
     * When the worker gives up on it, on the worker's clock, or {@link #NO_DEADLINE}: as its last lease extension
     * set, else its own processing timeout or {@code queueTimeout} (zero: none) after it was leased.
     */
    long deadline(Duration queueTimeout) {
        if (extendedUntil != NO_DEADLINE) {
            return extendedUntil;
        }
        Duration timeout = lease.task().timeoutOr(queueTimeout);
        return timeout.isZero() ? NO_DEADLINE : leasedAt + timeout.toMillis();
    }

    /** The store moved its deadline to {@code until} (on the worker's clock, taken before asking). */
    void extendedUntil(long until) {
        extendedUntil = until;
    }

    /** Its handler's latest report, replacing one no heartbeat has carried yet. */
    void reportProgress(Progress report) {
        unsentProgress.set(report);
    }

    /** The report for the next heartbeat to carry, if there is a new one; the next call answers null. */
    Progress takeProgress() {
        return unsentProgress.getAndSet(null);
    }

    /** The handler thread may run it: nobody released it first. */
    boolean start() {
        synchronized (this) {
            runner = Thread.currentThread();
        }
        if (state.compareAndSet(State.QUEUED, State.RUNNING)) {
            return true;
        }
        handlerReturned();
        return false;
    }

    /**
     * The handler returned: from now on a give-up must not interrupt this thread, which runs other tasks.
     * Whether its cancellation had been asked by then (the handler could know).
     */
    synchronized boolean handlerReturned() {
        runner = null;
        return cancelRequested;
    }

    /**
     * Its cancellation was asked: true the first time, while it waits or its handler runs; false once the
     * handler has returned (its outcome stands) or the task left the worker's hands.
     */
    synchronized boolean requestCancel() {
        State now = state.get();
        if (cancelRequested || !(now == State.QUEUED || now == State.RUNNING && runner != null)) {
            return false;
        }
        cancelRequested = true;
        return true;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    /** Interrupts its handler, if that still runs it, for not stopping within the cancel grace; whether it did. */
    synchronized boolean interruptForCancel() {
        if (!cancelRequested || runner == null || state.get() != State.RUNNING) {
            return false;
        }
        interruptedForCancel = true;
        runner.interrupt();
        return true;
    }

    synchronized boolean interruptedForCancel() {
        return interruptedForCancel;
    }

    /** Its handler finished and the worker may settle it: shutdown did not release it meanwhile. */
    boolean finishRunning() {
        return state.compareAndSet(State.RUNNING, State.DONE);
    }

    /** Takes a task whose handler outlived the grace period, to return it. */
    boolean claimRunning() {
        return state.compareAndSet(State.RUNNING, State.DONE);
    }

    /**
     * Takes a running task to give up on it (past its deadline, or cancelled and deaf to its interrupt): its
     * outcome will be dropped when (if ever) its handler returns. {@code replaceThread} runs only if it was
     * taken, and under this task's lock, so {@link #wasThreadReplaced} never misses its answer.
     */
    synchronized boolean claimGivenUp(BooleanSupplier replaceThread) {
        if (!state.compareAndSet(State.RUNNING, State.GIVEN_UP)) {
            return false;
        }
        threadReplaced = replaceThread.getAsBoolean();
        return true;
    }

    /** Interrupts its handler if that is still running it. */
    synchronized void interruptRunner() {
        if (runner != null) {
            runner.interrupt();
        }
    }

    boolean givenUp() {
        return state.get() == State.GIVEN_UP;
    }

    /** A handler thread was added in place of the one stuck in this task's handler. */
    synchronized boolean wasThreadReplaced() {
        return threadReplaced;
    }

    /** Takes a task that never started, to return it or settle it with its batch. */
    boolean claimQueued() {
        return state.compareAndSet(State.QUEUED, State.DONE);
    }

    boolean isRunning() {
        return state.get() == State.RUNNING;
    }

    /**
     * The first task of a fetch that was last held by a consumer that died or timed out (its reclaim
     * cause, docs/semantics.md): it may be what killed that worker. For an ordered
     * partition that is the head of its batch, the task the dead worker was on; the rest of the
     * batch never ran. Null if none.
     */
    static HeldTask firstSuspect(List<HeldTask> tasks) {
        for (HeldTask task : tasks) {
            if (task.lease.task().wasReclaimed()) {
                Partition partition = task.lease.partition();
                return partition.isOrdered()
                        ? tasks.stream().filter(other -> other.lease.partition().equals(partition)).findFirst().orElseThrow()
                        : task;
            }
        }
        return null;
    }
}
