package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;

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

    TaskContext(QueueName queue, HeldTask task, BooleanSupplier stopping) {
        this.queue = queue;
        this.task = task;
        this.lease = task.lease;
        this.stopping = stopping;
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
}
