package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.simulation.ModelTask.Gone;
import io.ordo.simulation.ModelTask.State;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.ordo.simulation.InvariantViolation.fail;

/**
 * What ends or returns a lease: ack, reject, fail, release, heartbeats and reclaim. Per-id outcomes follow
 * from who holds what, attempts and maxAttempts, including rule 5's batch returns and a processing
 * timeout taking an ordered batch back as a whole.
 */
final class SettlementInvariants {

    private final QueueModel model;
    private final OutcomeChecks outcomes;

    SettlementInvariants(QueueModel model, OutcomeChecks outcomes) {
        this.model = model;
        this.outcomes = outcomes;
    }

    void onAck(ConsumerId consumer, List<TaskId> ids, Map<TaskId, AckOutcome> result, long now) {
        model.begin();
        outcomes.checkKeys("ack", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            outcomes.expect("ack", id, result.get(id), task != null ? AckOutcome.ACKED : AckOutcome.LEASE_LOST);
            if (task != null) {
                model.gone(task, Gone.ACKED, now);
                model.ackedTotal++;
            }
        }
        model.end();
    }

    void onReject(ConsumerId consumer, List<TaskId> ids, Rejection rejection, Map<TaskId, RejectOutcome> result,
                  long now) {
        model.begin();
        List<ModelTask> named = model.heldNamed(ids, consumer);
        List<ModelTask> batch = model.afterLowestNamed(named, consumer);
        outcomes.checkKeys("reject", result, ids, idsOf(batch));
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            RejectOutcome expected = task == null ? RejectOutcome.LEASE_LOST
                    : task.cancelRequested ? RejectOutcome.CANCELLED
                    : task.attempts >= model.settings.maxAttempts() ? RejectOutcome.DEAD_LETTERED : RejectOutcome.RETURNED;
            outcomes.expect("reject", id, result.get(id), expected);
        }
        for (ModelTask task : batch) {
            outcomes.expect("reject", task.id, result.get(task.id),
                    task.cancelRequested ? RejectOutcome.CANCELLED : RejectOutcome.RETURNED_WITH_BATCH);
        }
        if (rejection.blocksPartition()) {
            long until = now + rejection.blockPartitionFor().toMillis();
            for (ModelTask task : named) {
                if (!task.cancelRequested) { // a cancelled task leaves, its partition is not blocked for it
                    model.blockedUntil.merge(task.partition, until, Math::max);
                }
            }
        }
        // in seq order, as the store gives tasks back (and so as they die)
        for (ModelTask task : named.stream().sorted(Comparator.comparingLong((ModelTask t) -> t.created)).toList()) {
            if (task.cancelRequested) {
                model.gone(task, Gone.CANCELLED, now);
            } else if (task.attempts >= model.settings.maxAttempts()) {
                model.dead(task, rejection.reason(), false, now);
            } else {
                task.readyAt = now + rejection.delay().toMillis();
                if (!task.partition.isOrdered()) {
                    task.dueAt = task.readyAt;
                }
                model.toWaiting(task);
            }
        }
        returnUnprocessed(batch, now);
        model.end();
    }

    /** Tasks returned unprocessed with their batch: back in place, attempt not counted, or gone if cancelled. */
    private int returnUnprocessed(List<ModelTask> tasks, long now) {
        int cancelled = 0;
        for (ModelTask task : tasks) {
            if (task.cancelRequested) {
                model.gone(task, Gone.CANCELLED, now);
                cancelled++;
            } else {
                task.attempts--;
                model.toWaiting(task);
            }
        }
        return cancelled;
    }

    void onFail(ConsumerId consumer, List<TaskId> ids, String reason, Map<TaskId, FailOutcome> result, long now) {
        model.begin();
        outcomes.checkKeys("fail", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            outcomes.expect("fail", id, result.get(id), task == null ? FailOutcome.LEASE_LOST
                    : task.cancelRequested ? FailOutcome.CANCELLED : FailOutcome.DEAD_LETTERED);
            if (task != null && task.cancelRequested) {
                model.gone(task, Gone.CANCELLED, now);
            } else if (task != null) {
                model.dead(task, reason, false, now);
            }
        }
        model.end();
    }

    void onRelease(ConsumerId consumer, List<TaskId> ids, Map<TaskId, ReleaseOutcome> result, long now) {
        model.begin();
        List<ModelTask> named = model.heldNamed(ids, consumer);
        List<ModelTask> batch = model.afterLowestNamed(named, consumer);
        outcomes.checkKeys("release", result, ids, idsOf(batch));
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            outcomes.expect("release", id, result.get(id), task == null ? ReleaseOutcome.LEASE_LOST
                    : task.cancelRequested ? ReleaseOutcome.CANCELLED : ReleaseOutcome.RELEASED);
        }
        for (ModelTask task : batch) {
            outcomes.expect("release", task.id, result.get(task.id),
                    task.cancelRequested ? ReleaseOutcome.CANCELLED : ReleaseOutcome.RELEASED);
        }
        returnUnprocessed(concat(named, batch), now);
        model.end();
    }

    void onHeartbeat(ConsumerId consumer, long ttlMillis, Map<TaskId, Progress> progress, Set<TaskId> cancelRequested,
                     long now) {
        model.begin();
        model.registered.put(consumer, now + ttlMillis);
        progress.forEach((id, report) -> {
            ModelTask task = model.heldBy(id, consumer);
            if (task != null) { // a report of a task the consumer does not hold is ignored
                task.progress = report;
                task.progressAt = now;
            }
        });
        checkCancelRequested("heartbeat", consumer, cancelRequested);
        model.end();
    }

    void onExtend(ConsumerId consumer, List<TaskId> ids, long extensionMillis, Map<TaskId, ExtendOutcome> result,
                  long now) {
        model.begin();
        outcomes.checkKeys("extendLease", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            ExtendOutcome expected = task == null ? ExtendOutcome.LEASE_LOST
                    : task.cancelRequested ? ExtendOutcome.CANCEL_REQUESTED : ExtendOutcome.EXTENDED;
            outcomes.expect("extendLease", id, result.get(id), expected);
            if (expected == ExtendOutcome.EXTENDED) {
                task.extendedUntil = now + extensionMillis;
            }
        }
        model.end();
    }

    /** What a heartbeat or fetch names: the tasks the consumer holds whose cancellation was asked. */
    void checkCancelRequested(String operation, ConsumerId consumer, Set<TaskId> cancelRequested) {
        Set<TaskId> expected = model.held().stream().filter(task -> task.holder.equals(consumer) && task.cancelRequested)
                .map(task -> task.id).collect(Collectors.toSet());
        if (!expected.equals(cancelRequested)) {
            fail(Invariant.OUTCOMES, "%s of %s named the cancellations %s, expected %s", operation, consumer,
                    cancelRequested, expected);
        }
    }

    void onReclaim(ReclaimReport report, long now) {
        model.begin();
        Set<ConsumerId> dead = new HashSet<>();
        model.registered.forEach((consumer, expiresAt) -> {
            if (expiresAt <= now) {
                dead.add(consumer);
            }
        });
        List<ModelTask> held = model.held();
        for (ModelTask task : held) {
            if (!model.registered.containsKey(task.holder)) {
                dead.add(task.holder);
            }
        }
        if (new HashSet<>(report.deadConsumers()).size() != report.deadConsumers().size()
                || !dead.equals(new HashSet<>(report.deadConsumers()))) {
            fail(Invariant.OUTCOMES, "reclaim declared %s dead, expected %s (registrations %s, now %d)",
                    sorted(report.deadConsumers()), sorted(dead), model.registered, now);
        }
        int returned = 0;
        int deadLettered = 0;
        int timedOut = 0;
        int cancelled = 0;
        // dead consumers by name, each one's tasks in seq order: the order they come back (and die) in
        held.sort(Comparator.comparing((ModelTask task) -> task.holder.value()).thenComparingLong(task -> task.created));
        for (ModelTask task : held) {
            if (dead.contains(task.holder)) {
                if (task.cancelRequested) {
                    model.gone(task, Gone.CANCELLED, now);
                    cancelled++;
                } else if (task.attempts >= model.settings.maxAttempts()) {
                    model.dead(task, "consumer " + task.holder + " stopped heartbeating", false, now);
                    deadLettered++;
                } else {
                    model.toWaiting(task);
                    returned++;
                }
            }
        }
        {
            long timeout = model.settings.processingTimeout().toMillis();
            List<ModelTask> late = new ArrayList<>();
            for (ModelTask task : held) {
                long deadline = task.deadline(timeout);
                if (task.state == State.HELD && deadline >= 0 && deadline <= now) {
                    late.add(task);
                }
            }
            // In an ordered batch the lowest-key late task is the one timed out, the rest after it come back
            // with it unprocessed (attempts - 1), as in rule 5, late or not (a batch shares its leasedAt, but a
            // task's own timeout or an extension gives it a deadline of its own).
            Map<List<Object>, ModelTask> lowest = new HashMap<>();
            for (ModelTask task : late) {
                if (task.partition.isOrdered()) {
                    lowest.merge(List.of(task.holder, task.partition), task, (a, b) -> ModelTask.KEY.compare(a, b) <= 0 ? a : b);
                }
            }
            List<ModelTask> timed = new ArrayList<>();
            List<ModelTask> batch = new ArrayList<>();
            for (ModelTask task : held) {
                if (task.state != State.HELD) {
                    continue;
                }
                ModelTask first = task.partition.isOrdered() ? lowest.get(List.of(task.holder, task.partition))
                        : null;
                if (first != null && ModelTask.KEY.compare(task, first) > 0) {
                    batch.add(task);
                } else if (late.contains(task)) {
                    timed.add(task);
                }
            }
            timed.sort(ModelTask.KEY); // overdue tasks come back (and die) in key order
            for (ModelTask task : timed) {
                if (task.cancelRequested) {
                    model.gone(task, Gone.CANCELLED, now);
                    cancelled++;
                    continue;
                }
                timedOut++;
                if (task.attempts >= model.settings.maxAttempts()) {
                    model.dead(task, "processing timed out after ", true, now);
                    deadLettered++;
                } else {
                    model.toWaiting(task);
                    returned++;
                }
            }
            int batchCancelled = returnUnprocessed(batch, now);
            cancelled += batchCancelled;
            returned += batch.size() - batchCancelled;
        }
        model.registered.keySet().removeAll(dead);
        if (report.returned() != returned || report.deadLettered() != deadLettered || report.timedOut() != timedOut
                || report.cancelled() != cancelled) {
            fail(Invariant.OUTCOMES, "reclaim reported returned=%d deadLettered=%d timedOut=%d cancelled=%d,"
                            + " expected %d/%d/%d/%d", report.returned(), report.deadLettered(), report.timedOut(),
                    report.cancelled(), returned, deadLettered, timedOut, cancelled);
        }
        model.end();
    }

    /** A complete: an ack whose tasks, while the view keeps results, keep these results. */
    void onComplete(ConsumerId consumer, Map<TaskId, byte[]> results, Map<TaskId, AckOutcome> result, long now) {
        onAck(consumer, List.copyOf(results.keySet()), result, now);
        results.forEach((id, bytes) -> {
            if (result.get(id) == AckOutcome.ACKED && model.keptUntil.containsKey(id)) {
                model.keptResults.put(id, bytes);
            }
        });
    }

    /** The reaper's expiry: every completed task kept past its time is deleted, and the store said how many. */
    void onExpireCompleted(long expired, long now) {
        model.begin();
        List<TaskId> due = model.keptUntil.entrySet().stream().filter(kept -> kept.getValue() <= now)
                .map(Map.Entry::getKey).toList();
        due.forEach(model::forgetCompleted);
        if (expired != due.size()) {
            fail(Invariant.OUTCOMES, "expireCompleted deleted %d, the model has %d kept past their time: %s", expired,
                    due.size(), due);
        }
        model.end();
    }

    /** The reaper's trim: every dead letter past the caps is dropped, and the store said how many. */
    void onTrimDeadLetters(long dropped, long now) {
        model.begin();
        long expected = model.dropPastCaps(Long.MAX_VALUE, now);
        if (dropped != expected) {
            fail(Invariant.OUTCOMES, "trimDeadLetters dropped %d, the caps %s drop %d", dropped,
                    model.settings.deadLetterMaxCount() + " / " + model.settings.deadLetterMaxAge(), expected);
        }
        model.end();
    }

    private static Set<TaskId> idsOf(List<ModelTask> tasks) {
        return tasks.stream().map(task -> task.id).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static List<ModelTask> concat(List<ModelTask> a, List<ModelTask> b) {
        List<ModelTask> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> sorted(Collection<ConsumerId> consumers) {
        return consumers.stream().map(ConsumerId::value).sorted().toList();
    }
}
