package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.simulation.ModelTask.State;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.ordo.simulation.InvariantViolation.fail;

/**
 * Consume in one view: every task taken was due, waiting, in an unblocked partition of a running view, its
 * partition's head, served by priority then turn, ordered runs consecutive and exclusive, and fewer than
 * asked only when nothing eligible was left. (Publishing is the queue's: {@link GroupInvariants}.)
 */
final class DeliveryInvariants {

    private final QueueModel model;
    private final ReadBackInvariants readBack;

    DeliveryInvariants(QueueModel model, ReadBackInvariants readBack) {
        this.model = model;
        this.readBack = readBack;
    }

    void onConsume(ConsumerId consumer, int max, List<Lease> leases, long now) {
        model.begin();
        model.registered.merge(consumer, now + model.settings.heartbeatTtl().toMillis(), Math::max);
        if (leases.size() > max) {
            fail(Invariant.TAKES_WHAT_IS_DUE, "%s asked for at most %d tasks and got %d: %s", consumer, max,
                    leases.size(), leaseIds(leases));
        }
        if (model.paused && !leases.isEmpty()) {
            fail(Invariant.BLOCKS, "the queue is paused but %s was given %s", consumer, leaseIds(leases));
        }
        // the queue's cap: a consume takes at most its free slots
        int room = max;
        if (model.settings.queueConcurrency() > 0) {
            room = Math.max(0, Math.min(max, model.settings.queueConcurrency() - model.heldIn(null)));
        }
        room = (int) Math.min(room, model.buckets.queueTokens(model.settings, now));
        if (leases.size() > room) {
            fail(Invariant.CONCURRENCY_CAPS, "%s was given %d tasks with %d of the queue's %d slots free: %s", consumer,
                    leases.size(), room, model.settings.queueConcurrency(), leaseIds(leases));
        }
        Set<Partition> locked = model.lockedPartitions();
        int pick = 0;
        int i = 0;
        while (i < leases.size()) {
            ModelTask task = deliverable(leases.get(i), consumer, locked, now);
            Partition partition = task.partition;
            if (!model.underCap(partition)) {
                fail(Invariant.CONCURRENCY_CAPS, "%s was given %s while %s has %d tasks in flight, its cap", consumer,
                        task.id, partition, model.heldIn(partition));
            }
            long tokens = model.buckets.partitionTokens(model.settings, partition, now);
            if (tokens < 1) {
                fail(Invariant.RATE_LIMITS, "%s was given %s while %s has no token", consumer, task.id, partition);
            }
            ModelTask head = model.head(partition, now);
            if (head != task) {
                ModelTask first = model.waiting.get(partition).first();
                fail(partition.isOrdered() ? Invariant.ORDERED_IN_ORDER : Invariant.PARTITION_KEY_ORDER,
                        "%s was given %s but the head of %s is %s", consumer, task, partition,
                        head != null ? head : first + " (not ready: nothing may overtake it)");
            }
            checkAcrossPartitions(task, locked, now);
            model.turns.put(partition, new QueueModel.Turn(model.op, ++pick));
            if (!partition.isOrdered()) {
                deliver(task, leases.get(i), consumer, now);
                model.buckets.took(model.settings, partition, 1, now);
                i++;
                continue;
            }
            List<ModelTask> run = new ArrayList<>(model.waiting.get(partition));
            int k = 0;
            while (i < leases.size() && k < run.size() && leases.get(i).id().equals(run.get(k).id)) {
                ModelTask next = run.get(k);
                if (next.readyAt > now) {
                    fail(Invariant.DELAYS, "%s was given %s of ordered %s at %d, before its readyAt", consumer,
                            next, partition, now);
                }
                deliver(next, leases.get(i), consumer, now);
                i++;
                k++;
            }
            if (k > tokens) {
                fail(Invariant.RATE_LIMITS, "%s was given %d tasks of ordered %s with %d tokens", consumer, k,
                        partition, tokens);
            }
            model.buckets.took(model.settings, partition, k, now);
            if (i < leases.size() && leases.get(i).task().partition().equals(partition)) {
                fail(Invariant.ORDERED_IN_ORDER, "%s was given %s of %s after %s, but the next task in key order is %s",
                        consumer, leases.get(i).id(), partition, run.get(k - 1).id,
                        k < run.size() ? run.get(k) : "none");
            }
            if (i < room && k < tokens && k < run.size() && run.get(k).readyAt <= now) {
                fail(Invariant.TAKES_WHAT_IS_DUE, "the run %s took from ordered %s stopped before %s, which is ready "
                        + "(%d of max %d taken)", run.subList(0, k).stream().map(t -> t.id.value()).toList(),
                        partition, run.get(k), i, max);
            }
            locked.add(partition);
        }
        if (leases.size() < room && !model.paused) {
            for (Partition partition : model.sortedPartitions()) {
                if (model.eligible(partition, locked, now)) {
                    fail(Invariant.TAKES_WHAT_IS_DUE, "%s asked for %d and got %d while %s could still deliver %s",
                            consumer, max, leases.size(), partition, model.head(partition, now));
                }
            }
        }
        model.end();
    }

    /** The model's task for a lease, after checking it may be delivered at all. */
    private ModelTask deliverable(Lease lease, ConsumerId consumer, Set<Partition> locked, long now) {
        ModelTask task = model.tasks.get(lease.id());
        if (task == null) {
            fail(Invariant.TASK_FIELDS, "%s was given %s, which was never published", consumer, lease.id());
        }
        switch (task.state) {
            case HELD -> fail(Invariant.NO_DOUBLE_DELIVERY, "%s was given %s, which %s still holds (since %d)",
                    consumer, task.id, task.holder, task.leasedAt);
            case DEAD -> fail(Invariant.NO_DOUBLE_DELIVERY, "%s was given %s, which is a dead letter", consumer,
                    task.id);
            case GONE -> fail(Invariant.NO_DOUBLE_DELIVERY, "%s was given %s, which was %s at %d", consumer,
                    task.id, task.gone.name().toLowerCase(Locale.ROOT), task.goneAt);
            default -> {
            }
        }
        if (!lease.task().partition().equals(task.partition)) {
            fail(Invariant.TASK_FIELDS, "%s was delivered in partition %s, it was published to %s", task.id,
                    lease.task().partition(), task.partition);
        }
        if (model.blocked(task.partition, now)) {
            fail(Invariant.BLOCKS, "%s was given %s of %s, which is blocked until %d (now %d)", consumer, task.id,
                    task.partition, model.blockedUntil.get(task.partition), now);
        }
        if (task.readyAt > now) {
            fail(Invariant.DELAYS, "%s was given %s at %d, before its readyAt %d", consumer, task, now,
                    task.readyAt);
        }
        if (task.partition.isOrdered() && locked.contains(task.partition)) {
            fail(Invariant.ORDERED_EXCLUSIVE, "%s was given %s while ordered %s is held by %s", consumer, task.id,
                    task.partition, model.holderOf(task.partition));
        }
        return task;
    }

    private void checkAcrossPartitions(ModelTask taken, Set<Partition> locked, long now) {
        QueueModel.Turn takenTurn = model.turns.get(taken.partition);
        for (Partition other : model.sortedPartitions()) {
            if (other.equals(taken.partition) || !model.eligible(other, locked, now)) {
                continue;
            }
            ModelTask head = model.head(other, now);
            if (head.priority > taken.priority) {
                fail(Invariant.PRIORITY, "%s (priority %d) was taken while %s could deliver %s (priority %d)",
                        taken.id, taken.priority, other, head.id, head.priority);
            }
            if (head.priority == taken.priority && model.turns.get(other).compareTo(takenTurn) < 0) {
                fail(Invariant.ROUND_ROBIN, "%s of %s (turn %s) was taken before %s of %s, equal priority %d, "
                                + "served less recently (turn %s)", taken.id, taken.partition, takenTurn, head.id,
                        other, head.priority, model.turns.get(other));
            }
        }
    }

    private void deliver(ModelTask task, Lease lease, ConsumerId consumer, long now) {
        model.leaveWaiting(task);
        task.state = State.HELD;
        task.holder = consumer;
        task.leasedAt = now;
        task.attempts++;
        if (!lease.consumer().equals(consumer) || lease.leasedAt() != now) {
            fail(Invariant.TASK_FIELDS, "the lease of %s names %s at %d, expected %s at %d", task.id,
                    lease.consumer(), lease.leasedAt(), consumer, now);
        }
        readBack.checkTask(lease.task(), task, "lease of " + task.id, true);
    }

    private static List<String> leaseIds(List<Lease> leases) {
        return leases.stream().map(lease -> lease.id().value()).toList();
    }
}
