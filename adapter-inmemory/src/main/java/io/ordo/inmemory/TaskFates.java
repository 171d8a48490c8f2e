package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.Reasons;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskEventType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What becomes of a task that leaves a consumer's hands, by ack, complete, reject, fail, release or reclaim:
 * deleted or kept with its result, retried, put back or dead-lettered, and the event log told. One place for
 * these ends, so the store's calls and reclaim apply the same rules. Not thread-safe: the store runs it under
 * its monitor, and wakes waiting consumes after.
 */
final class TaskFates {
    private final Holdings holdings;
    private final WaitingTasks waiting;
    private final DeadLetters dead;
    private final CompletedTasks completed;
    private final EventLog events;
    /** The store's dedup window: ids of acked tasks, with when they may be used again. */
    private final Map<TaskId, Long> recentlyAcked;
    private final Clock clock;
    /** The view's settings as they are now (configure changes them). */
    private final Supplier<QueueSettings> currentSettings;
    private long ackedTotal;

    TaskFates(Holdings holdings, WaitingTasks waiting, DeadLetters dead, CompletedTasks completed, EventLog events,
              Map<TaskId, Long> recentlyAcked, Clock clock, Supplier<QueueSettings> currentSettings) {
        this.holdings = holdings;
        this.waiting = waiting;
        this.dead = dead;
        this.completed = completed;
        this.events = events;
        this.recentlyAcked = recentlyAcked;
        this.clock = clock;
        this.currentSettings = currentSettings;
    }

    long ackedTotal() {
        return ackedTotal;
    }

    /** Acks: each task done, deleted or (the view keeps results) kept as completed with its result, if any. */
    Map<TaskId, AckOutcome> ack(ConsumerId consumer, List<TaskId> ids, Map<TaskId, byte[]> results) {
        QueueSettings settings = currentSettings.get();
        long now = clock.millis();
        return settleEach(consumer, ids, AckOutcome.LEASE_LOST, AckOutcome.ACKED, null, lease -> {
            ackedTotal++;
            event(TaskEventType.COMPLETED, lease.task());
            if (settings.hasDedupWindow()) {
                recentlyAcked.put(lease.id(), now + settings.dedupWindow().toMillis());
            }
            if (settings.keepsResults()) {
                completed.keep(lease.task(), now, settings.resultRetention().toMillis(),
                        results.getOrDefault(lease.id(), new byte[0]));
            }
        });
    }

    /**
     * Each named task the consumer holds leaves its hands and is settled; its ordered partition's lock goes
     * once the consumer holds nothing more of it. A task it does not hold is {@code lost}; one whose
     * cancellation was asked is deleted, {@code cancelled}, unless that is null (an ack completes it).
     */
    private <O> Map<TaskId, O> settleEach(ConsumerId consumer, List<TaskId> ids, O lost, O settled, O cancelled,
                                          Consumer<Lease> settle) {
        Map<TaskId, O> outcomes = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Lease lease = holdings.heldBy(consumer, id);
            if (lease == null) {
                outcomes.putIfAbsent(id, lost);
                continue;
            }
            boolean cancelling = cancelled != null && holdings.controls().isCancelRequested(id);
            if (cancelling) {
                holdings.dropCancelled(lease);
            } else {
                holdings.unhold(id);
                settle.accept(lease);
            }
            holdings.releaseLockIfDone(consumer, lease.partition());
            outcomes.put(id, cancelling ? cancelled : settled);
        }
        return outcomes;
    }

    Map<TaskId, RejectOutcome> reject(ConsumerId consumer, List<TaskId> checked, Rejection rejection) {
        QueueSettings settings = currentSettings.get();
        long now = clock.millis();
        // the partitions of the named tasks, whether returned or dead (the caps may delete a dead one at once)
        List<Partition> namedPartitions = new ArrayList<>();
        Map<TaskId, RejectOutcome> outcomes = holdings.giveBack(consumer, checked,
                (lease, named) -> {
                    if (!named) {
                        returnUnprocessed(lease);
                        return RejectOutcome.RETURNED_WITH_BATCH;
                    }
                    namedPartitions.add(lease.partition());
                    if (lease.task().attempts() >= lease.task().maxAttemptsOr(settings.maxAttempts())) {
                        bury(lease.task().withLastError(rejection.reason()), now);
                        return RejectOutcome.DEAD_LETTERED;
                    }
                    Task retried = lease.task().retriedAt(now + rejection.delay().toMillis(), rejection.reason());
                    waiting.put(retried);
                    event(TaskEventType.FAILED, retried);
                    return RejectOutcome.RETURNED;
                }, RejectOutcome.LEASE_LOST, RejectOutcome.CANCELLED);
        if (rejection.blocksPartition()) {
            long until = now + rejection.blockPartitionFor().toMillis();
            namedPartitions.forEach(partition -> waiting.blockAtLeastUntil(partition, until));
        }
        return outcomes;
    }

    Map<TaskId, FailOutcome> fail(ConsumerId consumer, List<TaskId> checked, String reason) {
        String why = Reasons.truncate(reason);
        long now = clock.millis();
        return settleEach(consumer, checked, FailOutcome.LEASE_LOST, FailOutcome.DEAD_LETTERED, FailOutcome.CANCELLED,
                lease -> bury(lease.task().withLastError(why), now));
    }

    Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, List<TaskId> checked) {
        return holdings.giveBack(consumer, checked, (lease, named) -> {
            returnUnprocessed(lease);
            return ReleaseOutcome.RELEASED;
        }, ReleaseOutcome.LEASE_LOST, ReleaseOutcome.CANCELLED);
    }

    /** A delivery that never ran: back in place, and it does not count as an attempt. */
    void returnUnprocessed(Lease lease) {
        waiting.put(lease.task().withAttempts(lease.task().attempts() - 1));
    }

    /** A task whose processing never finished: back in place with the attempt counted, or dead if out of attempts. */
    boolean takeBackCrashed(Task reclaimed, long now) {
        if (reclaimed.attempts() >= reclaimed.maxAttemptsOr(currentSettings.get().maxAttempts())) {
            bury(reclaimed, now);
            return true;
        }
        waiting.put(reclaimed);
        event(TaskEventType.FAILED, reclaimed);
        return false;
    }

    /** A task into the dead letters (the caps may drop the oldest at once). */
    private void bury(Task task, long now) {
        dead.bury(task, now, currentSettings.get());
        event(TaskEventType.DEAD_LETTERED, task);
    }

    /** Notes what became of a task in the log, while the view keeps one; a failure's or death's reason with it. */
    void event(TaskEventType type, Task task) {
        String reason = type == TaskEventType.FAILED || type == TaskEventType.DEAD_LETTERED ? task.lastError() : null;
        events.record(type, task, clock.millis(), reason, currentSettings.get().eventLogLength());
    }
}
