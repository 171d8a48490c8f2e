package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueName;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;
import io.ordo.ports.ExtendOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The delivery a handler is working on: which task, which attempt, whether the worker is stopping or the
 * task's cancellation was asked (docs/task-control.md).
 */
public final class TaskContext {
    private final QueueName queue;
    private final HeldTask task;
    private final Lease lease;
    private final BooleanSupplier stopping;
    private final TaskLeases leases;

    TaskContext(QueueName queue, HeldTask task, BooleanSupplier stopping, TaskLeases leases) {
        this.queue = queue;
        this.task = task;
        this.lease = task.lease;
        this.stopping = stopping;
        this.leases = leases;
    }

    /** The queue the task came from. */
    public QueueName queue() {
        return queue;
    }

    public TaskId id() {
        return lease.id();
    }

    public Partition partition() {
        return lease.partition();
    }

    /** 1 on the first delivery, 2 on the first retry, and so on. */
    public int attempt() {
        return lease.task().attempts();
    }

    public Map<String, String> headers() {
        return lease.task().headers();
    }

    /** Why the previous attempt failed, if one did. */
    public Optional<String> lastError() {
        return lease.task().lastErrorIfAny();
    }

    /**
     * Why reclaim took the task back, when its last error came from reclaim: its last holder stopped
     * heartbeating or held it past the processing timeout. Empty on a first delivery and after a failed attempt.
     */
    public Optional<ReclaimCause> reclaimCause() {
        return lease.task().reclaimCauseIfAny();
    }

    /** The consumer holding the task. */
    public ConsumerId consumer() {
        return lease.consumer();
    }

    /** The whole task as the queue delivered it. */
    public Task task() {
        return lease.task();
    }

    Lease lease() {
        return lease;
    }

    /**
     * True once the worker is shutting down: a long handler may stop early and throw, and its task
     * is retried; a handler that finishes within the grace period is acked as usual.
     */
    public boolean isStopping() {
        return stopping.getAsBoolean();
    }

    /**
     * True once the worker has heard that the task's cancellation was asked (from its next heartbeat or fetch
     * after the cancel; docs/task-control.md). A long handler should look now and then and stop: return or
     * throw, it makes no difference, the task is deleted. One still running after the worker's
     * {@code cancelGrace} is interrupted, and one that ignores the interrupt is given up
     * (docs/decisions/cancelling-running-tasks.md). A handler that returned before this turned true keeps its
     * outcome. Reads a field: cheap enough for a tight loop.
     */
    public boolean isCancelled() {
        return task.cancelRequested();
    }

    /**
     * Says how far the handler has come: {@code percent} 0..100 and a short message (at most
     * {@value Progress#MAX_MESSAGE_LENGTH} characters, possibly empty). Kept by the worker and carried by its next
     * heartbeat (no call of its own: reporting often is cheap, only the latest report is sent); operators see it
     * in the task's lease ({@code get}). A report not yet sent when the task finishes is dropped.
     *
     * @throws io.ordo.domain.InvalidInputException naming {@code progress.percent} or {@code progress.message}
     */
    public void reportProgress(int percent, String message) {
        reportProgress(new Progress(percent, message));
    }

    /** {@link #reportProgress(int, String)} with a report made beforehand. */
    public void reportProgress(Progress progress) {
        leases.reportProgress(task, Validate.notNull("progress", progress));
    }

    /**
     * Moves the deadline of this task's lease to now plus {@code extension} (1 s..1 day), in place of its own or
     * the queue's processing timeout, so a task that runs long is neither taken back by the store nor given up
     * by the worker while it lives; a later extension replaces an earlier one. One round trip to the store, made
     * on the handler's thread: extend now and then by a good margin, not in a tight loop. An answer
     * {@link ExtendOutcome#CANCEL_REQUESTED} also turns {@link #isCancelled()} true; {@link ExtendOutcome#LEASE_LOST}
     * means the task is no longer this worker's (whatever the handler does, its outcome will not count).
     *
     * @throws io.ordo.domain.InvalidInputException naming {@code extension} when it is out of bounds
     * @throws io.ordo.ports.QueueUnavailableException when the backend does not answer
     */
    public ExtendOutcome extendLease(Duration extension) {
        return leases.extend(task, extension);
    }

    /**
     * When the worker gives up on this task (and the store takes it back, about then): its own processing
     * timeout or the queue's after it reached the worker, or as {@link #extendLease} last set it, on the worker's
     * clock; empty when neither sets one. Cheap: no store call.
     */
    public Optional<Instant> deadline() {
        return leases.deadline(task);
    }
}
