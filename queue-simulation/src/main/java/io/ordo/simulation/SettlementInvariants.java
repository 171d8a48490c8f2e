package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
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
                    : task.attempts >= model.settings.maxAttempts() ? RejectOutcome.DEAD_LETTERED : RejectOutcome.RETURNED;
            outcomes.expect("reject", id, result.get(id), expected);
        }
        for (ModelTask task : batch) {
            outcomes.expect("reject", task.id, result.get(task.id), RejectOutcome.RETURNED_WITH_BATCH);
        }
        if (rejection.blocksPartition()) {
            long until = now + rejection.blockPartitionFor().toMillis();
            for (ModelTask task : named) {
                model.blockedUntil.merge(task.partition, until, Math::max);
            }
        }
        // in seq order, as the store gives tasks back (and so as they die)
        for (ModelTask task : named.stream().sorted(Comparator.comparingLong((ModelTask t) -> t.created)).toList()) {
            if (task.attempts >= model.settings.maxAttempts()) {
                model.dead(task, rejection.reason(), false, now);
            } else {
                task.readyAt = now + rejection.delay().toMillis();
                if (!task.partition.isOrdered()) {
                    task.dueAt = task.readyAt;
                }
                model.toWaiting(task);
            }
        }
        for (ModelTask task : batch) {
            task.attempts--;
            model.toWaiting(task);
        }
        model.end();
    }

    void onFail(ConsumerId consumer, List<TaskId> ids, String reason, Map<TaskId, FailOutcome> result, long now) {
        model.begin();
        outcomes.checkKeys("fail", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = model.heldBy(id, consumer);
            outcomes.expect("fail", id, result.get(id), task != null ? FailOutcome.DEAD_LETTERED : FailOutcome.LEASE_LOST);
            if (task != null) {
                model.dead(task, reason, false, now);
            }
        }
        model.end();
    }

    void onRelease(ConsumerId consumer, List<TaskId> ids, Map<TaskId, ReleaseOutcome> result) {
        model.begin();
        List<ModelTask> named = model.heldNamed(ids, consumer);
        List<ModelTask> batch = model.afterLowestNamed(named, consumer);
        outcomes.checkKeys("release", result, ids, idsOf(batch));
        for (TaskId id : ids) {
            outcomes.expect("release", id, result.get(id),
                    model.heldBy(id, consumer) != null ? ReleaseOutcome.RELEASED : ReleaseOutcome.LEASE_LOST);
        }
        for (ModelTask task : batch) {
            outcomes.expect("release", task.id, result.get(task.id), ReleaseOutcome.RELEASED);
        }
        for (ModelTask task : concat(named, batch)) {
            task.attempts--;
            model.toWaiting(task);
        }
        model.end();
    }

    void onHeartbeat(ConsumerId consumer, long ttlMillis, long now) {
        model.begin();
        model.registered.put(consumer, now + ttlMillis);
        model.end();
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
        // dead consumers by name, each one's tasks in seq order: the order they come back (and die) in
        held.sort(Comparator.comparing((ModelTask task) -> task.holder.value()).thenComparingLong(task -> task.created));
        for (ModelTask task : held) {
            if (dead.contains(task.holder)) {
                if (task.attempts >= model.settings.maxAttempts()) {
                    model.dead(task, "consumer " + task.holder + " stopped heartbeating", false, now);
                    deadLettered++;
                } else {
                    model.toWaiting(task);
                    returned++;
                }
            }
        }
        if (model.settings.hasProcessingTimeout()) {
            long timeout = model.settings.processingTimeout().toMillis();
            List<ModelTask> late = new ArrayList<>();
            for (ModelTask task : held) {
                if (task.state == State.HELD && task.leasedAt + timeout <= now) {
                    late.add(task);
                }
            }
            // An ordered batch shares one leasedAt, so it times out as a whole: its lowest-key task is the
            // one timed out, the rest come back with it unprocessed (attempts - 1), as in rule 5.
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
                timedOut++;
                if (task.attempts >= model.settings.maxAttempts()) {
                    model.dead(task, "processing timed out after ", true, now);
                    deadLettered++;
                } else {
                    model.toWaiting(task);
                    returned++;
                }
            }
            for (ModelTask task : batch) {
                task.attempts--;
                model.toWaiting(task);
                returned++;
            }
        }
        model.registered.keySet().removeAll(dead);
        if (report.returned() != returned || report.deadLettered() != deadLettered || report.timedOut() != timedOut) {
            fail(Invariant.OUTCOMES, "reclaim reported returned=%d deadLettered=%d timedOut=%d, expected %d/%d/%d",
                    report.returned(), report.deadLettered(), report.timedOut(), returned, deadLettered, timedOut);
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
