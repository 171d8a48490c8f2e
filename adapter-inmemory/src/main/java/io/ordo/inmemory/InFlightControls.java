package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.ports.LeaseStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What is said of tasks in flight beside their leases (docs/task-control.md): a cancellation asked, a deadline
 * set by an extension, the last progress reported. Every entry goes with its task's lease ({@link #forget}).
 * Not thread-safe: the store calls it under its monitor.
 */
final class InFlightControls {
    private record Report(Progress progress, long at) {
    }

    /** Tasks whose cancellation was asked, and their holder when it was. */
    private final Map<TaskId, ConsumerId> cancelRequested = new HashMap<>();
    /** Deadlines set by an extension, epoch ms. */
    private final Map<TaskId, Long> extendedUntil = new HashMap<>();
    private final Map<TaskId, Report> progress = new HashMap<>();

    void requestCancel(Lease lease) {
        cancelRequested.put(lease.id(), lease.consumer());
    }

    boolean isCancelRequested(TaskId id) {
        return cancelRequested.containsKey(id);
    }

    /** The tasks of this consumer whose cancellation was asked: O(cancellations pending), not O(tasks held). */
    Set<TaskId> cancelRequestedOf(ConsumerId consumer) {
        return cancelRequested.entrySet().stream().filter(entry -> entry.getValue().equals(consumer))
                .map(Map.Entry::getKey).collect(Collectors.toCollection(HashSet::new));
    }

    void extend(TaskId id, long until) {
        extendedUntil.put(id, until);
    }

    void report(TaskId id, Progress report, long now) {
        progress.put(id, new Report(report, now));
    }

    /** Whether any task has a deadline of its own: else only the queue's timeout can end a live lease. */
    boolean anyExtended() {
        return !extendedUntil.isEmpty();
    }

    /**
     * When the store takes the task back though its holder lives, epoch ms, or -1 for never: an extension's
     * deadline, else the task's own timeout or the queue's (zero: none) after the lease.
     */
    long deadlineOf(Lease lease, Duration queueTimeout) {
        Long extended = extendedUntil.get(lease.id());
        if (extended != null) {
            return extended;
        }
        Duration timeout = lease.task().timeoutOr(queueTimeout);
        return timeout.isZero() ? -1 : lease.leasedAt() + timeout.toMillis();
    }

    LeaseStatus statusOf(Lease lease, Duration queueTimeout) {
        long deadline = deadlineOf(lease, queueTimeout);
        Report report = progress.get(lease.id());
        return new LeaseStatus(Instant.ofEpochMilli(lease.leasedAt()),
                deadline < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline)),
                isCancelRequested(lease.id()),
                Optional.ofNullable(report).map(Report::progress),
                Optional.ofNullable(report).map(r -> Instant.ofEpochMilli(r.at())));
    }

    /** The task left its holder's hands: nothing more is said of it. */
    void forget(TaskId id) {
        cancelRequested.remove(id);
        extendedUntil.remove(id);
        progress.remove(id);
    }
}
