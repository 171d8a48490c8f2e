package io.ordo.runtime.worker;

import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.ports.Clock;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.LeaseControls;
import io.ordo.ports.TaskConsuming;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A running task's lease as its handler sees it through {@link TaskContext}: when the worker gives up on it,
 * and extensions of it, each one store call (docs/task-control.md).
 */
final class TaskLeases {
    private final TaskConsuming store;
    private final Clock clock;
    private final Supplier<Duration> processingTimeout;
    private final Cancellations cancellations;
    private final WorkerListener listener;

    /** @param processingTimeout the queue's processing timeout as last heard (zero: none) */
    TaskLeases(TaskConsuming store, Clock clock, Supplier<Duration> processingTimeout, Cancellations cancellations,
               WorkerListener listener) {
        this.store = store;
        this.clock = clock;
        this.processingTimeout = processingTimeout;
        this.cancellations = cancellations;
        this.listener = listener;
    }

    /** When the worker gives up on the task, on its clock; empty when nothing but a shutdown ends its run. */
    Optional<Instant> deadline(HeldTask task) {
        long deadline = task.deadline(processingTimeout.get());
        return deadline == HeldTask.NO_DEADLINE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline));
    }

    /**
     * Asks the store to move the task's deadline to now plus {@code extension}, and moves the worker's with it;
     * an answer that its cancellation was asked is heard at once.
     */
    /** A handler's report: kept for the next heartbeat, and told to the listeners. */
    void reportProgress(HeldTask task, Progress progress) {
        task.reportProgress(progress);
        listener.progressReported(task.lease, progress);
    }

    ExtendOutcome extend(HeldTask task, Duration extension) {
        long millis = LeaseControls.extensionMillis(extension);
        long askedAt = clock.millis(); // before the store's now: the worker gives up no later than the store takes it back
        TaskId id = task.lease.id();
        ExtendOutcome outcome = store.extendLease(task.lease.consumer(), List.of(id), extension)
                .getOrDefault(id, ExtendOutcome.LEASE_LOST);
        if (outcome == ExtendOutcome.EXTENDED) {
            task.extendedUntil(askedAt + millis);
        } else if (outcome == ExtendOutcome.CANCEL_REQUESTED) {
            cancellations.requested(task);
        }
        listener.leaseExtended(task.lease, outcome);
        return outcome;
    }
}
