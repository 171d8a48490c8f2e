package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Lease;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.domain.Validate;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.ConsumerHeartbeat;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.LeaseControls;
import io.ordo.ports.TaskEventType;
import io.ordo.ports.TaskSnapshot;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Task control (docs/task-control.md) over the store's state: cancelling a task wherever it is, a holder's
 * heartbeat with its progress and the cancellations asked of it, extending a lease, and what {@code get}
 * shows of a task. Not thread-safe: the store runs it under its monitor, and wakes waiting consumes after
 * a cancel.
 */
final class InMemoryTaskControl {
    private final Holdings holdings;
    private final WaitingTasks waiting;
    private final DeadLetters dead;
    private final CompletedTasks completed;
    private final ConsumerRegistry consumers;
    private final TaskFates fates;
    private final Clock clock;
    /** The view's settings as they are now (configure changes them). */
    private final Supplier<QueueSettings> currentSettings;

    InMemoryTaskControl(Holdings holdings, WaitingTasks waiting, DeadLetters dead, CompletedTasks completed,
                        ConsumerRegistry consumers, TaskFates fates, Clock clock,
                        Supplier<QueueSettings> currentSettings) {
        this.holdings = holdings;
        this.waiting = waiting;
        this.dead = dead;
        this.completed = completed;
        this.consumers = consumers;
        this.fates = fates;
        this.clock = clock;
        this.currentSettings = currentSettings;
    }

    Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        new ConsumerHeartbeat(consumer, ttl);
        Map<TaskId, Progress> reports = LeaseControls.progress(progress);
        long now = clock.millis();
        consumers.heartbeat(consumer, now + ttl.toMillis(), now);
        reports.forEach((id, report) -> {
            if (holdings.heldBy(consumer, id) != null) {
                holdings.controls().report(id, report, now);
            }
        });
        return holdings.controls().cancelRequestedOf(consumer);
    }

    Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        Validate.notNull("consumer", consumer);
        List<TaskId> checked = PublishRules.ids("ids", ids);
        long until = clock.millis() + LeaseControls.extensionMillis(extension);
        Map<TaskId, ExtendOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            if (holdings.heldBy(consumer, id) == null) {
                outcomes.put(id, ExtendOutcome.LEASE_LOST);
            } else if (holdings.controls().isCancelRequested(id)) {
                outcomes.put(id, ExtendOutcome.CANCEL_REQUESTED);
            } else {
                holdings.controls().extend(id, until);
                outcomes.put(id, ExtendOutcome.EXTENDED);
            }
        }
        return outcomes;
    }

    Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        List<TaskId> checked = PublishRules.ids("ids", ids);
        Map<TaskId, CancelOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            if (outcomes.containsKey(id)) {
                continue;
            }
            Task task = waiting.get(id);
            DeadLetter deadLetter;
            if (task != null) {
                waiting.remove(task);
                fates.event(TaskEventType.CANCELLED, task);
                outcomes.put(id, CancelOutcome.CANCELLED);
            } else if ((deadLetter = dead.remove(id)) != null) {
                fates.event(TaskEventType.CANCELLED, deadLetter.task());
                outcomes.put(id, CancelOutcome.CANCELLED);
            } else if (completed.remove(id) != null) {
                outcomes.put(id, CancelOutcome.CANCELLED);
            } else if (holdings.contains(id)) {
                holdings.controls().requestCancel(holdings.get(id));
                outcomes.put(id, CancelOutcome.CANCEL_REQUESTED);
            } else {
                outcomes.put(id, CancelOutcome.UNKNOWN);
            }
        }
        return outcomes;
    }

    Optional<TaskSnapshot> get(TaskId id) {
        Validate.notNull("id", id);
        long now = clock.millis();
        Task task = waiting.get(id);
        if (task != null) {
            TaskState state = task.isReadyAt(now) ? TaskState.PENDING : TaskState.DELAYED;
            return Optional.of(TaskSnapshot.unheld(task, state));
        }
        Lease lease = holdings.get(id);
        if (lease != null) {
            return Optional.of(TaskSnapshot.held(lease.task(), lease.consumer(),
                    holdings.controls().statusOf(lease, currentSettings.get().processingTimeout())));
        }
        DeadLetter letter = dead.get(id);
        if (letter != null) {
            return Optional.of(TaskSnapshot.unheld(letter.task(), TaskState.DEAD));
        }
        CompletedTasks.Kept done = completed.get(id);
        if (done != null) {
            return Optional.of(TaskSnapshot.completed(done.task(), done.completion()));
        }
        return Optional.empty();
    }
}
