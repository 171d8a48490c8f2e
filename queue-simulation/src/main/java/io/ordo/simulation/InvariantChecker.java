package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A reference model of what must hold, written from SPEC.md and docs/semantics.md and fed with
 * every call and its result. It does not predict a store's answers where the rules leave a
 * choice; it checks each answer against the rules and follows the state the answer implies:
 *
 * <ul>
 *   <li>consume: every task taken was waiting, due, in an unblocked partition of a running queue;
 *       it was its partition's head; no eligible partition had a higher-priority head or (at equal
 *       priority) an earlier turn; an ordered partition was not held and gave a consecutive run in
 *       key order; fewer than {@code max} only when nothing eligible was left; attempts + 1;</li>
 *   <li>ack, reject, fail, release, cancel, redrive, purge, reclaim: the per-id outcomes follow
 *       from who holds what, attempts and maxAttempts (including rule 5's batch returns, and a
 *       processing timeout taking an ordered batch back as a whole: its first task by key timed out,
 *       the rest returned with it);</li>
 *   <li>after every step the stats equal the model's counts, and every few steps each task read
 *       back with {@code get} and the dead-letter list agree with the model (nothing lost, nothing
 *       resurrected, attempts and times right).</li>
 * </ul>
 *
 * Ordering keys use the model's own creation order in place of {@code seq}; the store's seq values
 * are checked to increase in that order. Where the rules leave a choice the checker accepts either
 * (docs/simulation.md lists them); the differential test is the one that expects two stores to agree.
 */
final class InvariantChecker {

    private enum State { WAITING, HELD, DEAD, GONE }

    private enum Gone { ACKED, CANCELLED, PURGED }

    /** One incarnation of a task id as the model expects it. */
    private static final class ModelTask {
        final TaskId id;
        final Partition partition;
        final int priority;
        final byte[] payload;
        /** Creation order within the queue: stands in for seq. */
        final long created;
        long dueAt;
        long readyAt;
        int attempts;
        State state = State.WAITING;
        ConsumerId holder;
        long leasedAt;
        /** The seq the store reported, once seen; -1 before. */
        long seq = -1;
        long deadOp;
        long deadAt;
        String deadReason;
        boolean deadReasonIsPrefix;
        Gone gone;
        long goneAt;

        ModelTask(NewTask request, long created, long now) {
            this.id = request.id();
            this.partition = request.partition();
            this.priority = request.priority().value();
            this.payload = request.payload();
            this.created = created;
            this.dueAt = now + request.delay().toMillis();
            this.readyAt = dueAt;
        }

        @Override
        public String toString() {
            String where = switch (state) {
                case WAITING -> "waiting";
                case HELD -> "held by " + holder;
                case DEAD -> "dead";
                case GONE -> gone.name().toLowerCase(Locale.ROOT);
            };
            return id + "[" + partition + " p" + priority + " due=" + dueAt + " ready=" + readyAt + " attempts="
                    + attempts + " " + where + "]";
        }
    }

    /** When a partition was last given a turn; equal values mean the rules leave their order open. */
    private record Turn(long op, int pick) implements Comparable<Turn> {
        @Override
        public int compareTo(Turn other) {
            return op != other.op ? Long.compare(op, other.op) : Integer.compare(pick, other.pick);
        }
    }

    private static final Comparator<ModelTask> KEY = Comparator
            .comparingInt((ModelTask task) -> -task.priority)
            .thenComparingLong(task -> task.dueAt)
            .thenComparingLong(task -> task.created);

    private final TaskStore store;
    private QueueSettings settings = QueueSettings.DEFAULTS;
    /** The latest incarnation of every id ever published, gone ones included. */
    private final Map<TaskId, ModelTask> tasks = new LinkedHashMap<>();
    private final Map<Partition, TreeSet<ModelTask>> waiting = new HashMap<>();
    private final Map<Partition, Turn> turns = new HashMap<>();
    private final Map<ConsumerId, Long> registered = new HashMap<>();
    private final Map<Partition, Long> blockedUntil = new HashMap<>();
    private final TreeMap<Long, Long> seqByCreated = new TreeMap<>();
    private boolean paused;
    private long created;
    private long op;
    private long publishedTotal;
    private long ackedTotal;
    private long deadLetteredTotal;

    InvariantChecker(TaskStore store) {
        this.store = store;
    }

    // ---------------------------------------------------------------- operations

    void onConfigure(QueueSettings requested, QueueSettings stored) {
        if (!requested.equals(stored)) {
            fail(Invariant.OUTCOMES, "configured %s but settings() returns %s", requested, stored);
        }
        settings = requested;
    }

    void onPublish(List<NewTask> batch, List<PublishReceipt> receipts, long now) {
        begin();
        if (receipts.size() != batch.size()) {
            fail(Invariant.OUTCOMES, "publish of %d tasks returned %d receipts", batch.size(), receipts.size());
        }
        for (int i = 0; i < batch.size(); i++) {
            NewTask request = batch.get(i);
            PublishReceipt receipt = receipts.get(i);
            if (!receipt.id().equals(request.id())) {
                fail(Invariant.OUTCOMES, "publish receipt %d is for %s, the batch has %s there", i, receipt.id(),
                        request.id());
            }
            PublishOutcome expected = expectedPublish(request.id(), now);
            if (expected != null && receipt.outcome() != expected) {
                fail(Invariant.OUTCOMES, "publish of %s: expected %s, got %s (%s)", request.id(), expected,
                        receipt.outcome(), describeId(request.id()));
            }
            if (receipt.outcome() == PublishOutcome.CREATED) {
                ModelTask task = new ModelTask(request, ++created, now);
                tasks.put(task.id, task);
                toWaiting(task);
                publishedTotal++;
            }
        }
        end();
    }

    /** The outcome the rules require, or null where they allow either. */
    private PublishOutcome expectedPublish(TaskId id, long now) {
        ModelTask existing = tasks.get(id);
        if (existing != null && existing.state != State.GONE) {
            return PublishOutcome.DUPLICATE;
        }
        if (existing == null || !settings.hasDedupWindow()) {
            return PublishOutcome.CREATED;
        }
        long window = settings.dedupWindow().toMillis();
        long age = now - existing.goneAt;
        if (existing.gone == Gone.ACKED) {
            // "remembered for that long": the exact boundary is not pinned down.
            return age < window ? PublishOutcome.DUPLICATE : age == window ? null : PublishOutcome.CREATED;
        }
        // Whether a cancelled or purged id is remembered is not specified.
        return age <= window ? null : PublishOutcome.CREATED;
    }

    void onConsume(ConsumerId consumer, int max, List<Lease> leases, long now) {
        begin();
        registered.merge(consumer, now + settings.heartbeatTtl().toMillis(), Math::max);
        if (leases.size() > max) {
            fail(Invariant.TAKES_WHAT_IS_DUE, "%s asked for at most %d tasks and got %d: %s", consumer, max,
                    leases.size(), leaseIds(leases));
        }
        if (paused && !leases.isEmpty()) {
            fail(Invariant.BLOCKS, "the queue is paused but %s was given %s", consumer, leaseIds(leases));
        }
        Set<Partition> locked = lockedPartitions();
        int pick = 0;
        int i = 0;
        while (i < leases.size()) {
            ModelTask task = deliverable(leases.get(i), consumer, locked, now);
            Partition partition = task.partition;
            ModelTask head = head(partition, now);
            if (head != task) {
                ModelTask first = waiting.get(partition).first();
                fail(partition.isOrdered() ? Invariant.ORDERED_IN_ORDER : Invariant.PARTITION_KEY_ORDER,
                        "%s was given %s but the head of %s is %s", consumer, task, partition,
                        head != null ? head : first + " (not ready: nothing may overtake it)");
            }
            checkAcrossPartitions(task, locked, now);
            turns.put(partition, new Turn(op, ++pick));
            if (!partition.isOrdered()) {
                deliver(task, leases.get(i), consumer, now);
                i++;
                continue;
            }
            List<ModelTask> run = new ArrayList<>(waiting.get(partition));
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
            if (i < leases.size() && leases.get(i).task().partition().equals(partition)) {
                fail(Invariant.ORDERED_IN_ORDER, "%s was given %s of %s after %s, but the next task in key order is %s",
                        consumer, leases.get(i).id(), partition, run.get(k - 1).id,
                        k < run.size() ? run.get(k) : "none");
            }
            if (i < max && k < run.size() && run.get(k).readyAt <= now) {
                fail(Invariant.TAKES_WHAT_IS_DUE, "the run %s took from ordered %s stopped before %s, which is ready "
                        + "(%d of max %d taken)", run.subList(0, k).stream().map(t -> t.id.value()).toList(),
                        partition, run.get(k), i, max);
            }
            locked.add(partition);
        }
        if (leases.size() < max && !paused) {
            for (Partition partition : sortedPartitions()) {
                if (eligible(partition, locked, now)) {
                    fail(Invariant.TAKES_WHAT_IS_DUE, "%s asked for %d and got %d while %s could still deliver %s",
                            consumer, max, leases.size(), partition, head(partition, now));
                }
            }
        }
        end();
    }

    /** The model's task for a lease, after checking it may be delivered at all. */
    private ModelTask deliverable(Lease lease, ConsumerId consumer, Set<Partition> locked, long now) {
        ModelTask task = tasks.get(lease.id());
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
        if (blocked(task.partition, now)) {
            fail(Invariant.BLOCKS, "%s was given %s of %s, which is blocked until %d (now %d)", consumer, task.id,
                    task.partition, blockedUntil.get(task.partition), now);
        }
        if (task.readyAt > now) {
            fail(Invariant.DELAYS, "%s was given %s at %d, before its readyAt %d", consumer, task, now,
                    task.readyAt);
        }
        if (task.partition.isOrdered() && locked.contains(task.partition)) {
            fail(Invariant.ORDERED_EXCLUSIVE, "%s was given %s while ordered %s is held by %s", consumer, task.id,
                    task.partition, holderOf(task.partition));
        }
        return task;
    }

    private void checkAcrossPartitions(ModelTask taken, Set<Partition> locked, long now) {
        Turn takenTurn = turns.get(taken.partition);
        for (Partition other : sortedPartitions()) {
            if (other.equals(taken.partition) || !eligible(other, locked, now)) {
                continue;
            }
            ModelTask head = head(other, now);
            if (head.priority > taken.priority) {
                fail(Invariant.PRIORITY, "%s (priority %d) was taken while %s could deliver %s (priority %d)",
                        taken.id, taken.priority, other, head.id, head.priority);
            }
            if (head.priority == taken.priority && turns.get(other).compareTo(takenTurn) < 0) {
                fail(Invariant.ROUND_ROBIN, "%s of %s (turn %s) was taken before %s of %s, equal priority %d, "
                                + "served less recently (turn %s)", taken.id, taken.partition, takenTurn, head.id,
                        other, head.priority, turns.get(other));
            }
        }
    }

    private void deliver(ModelTask task, Lease lease, ConsumerId consumer, long now) {
        leaveWaiting(task);
        task.state = State.HELD;
        task.holder = consumer;
        task.leasedAt = now;
        task.attempts++;
        if (!lease.consumer().equals(consumer) || lease.leasedAt() != now) {
            fail(Invariant.TASK_FIELDS, "the lease of %s names %s at %d, expected %s at %d", task.id,
                    lease.consumer(), lease.leasedAt(), consumer, now);
        }
        checkTask(lease.task(), task, "lease of " + task.id, true);
    }

    void onAck(ConsumerId consumer, List<TaskId> ids, Map<TaskId, AckOutcome> result, long now) {
        begin();
        checkKeys("ack", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = heldBy(id, consumer);
            expect("ack", id, result.get(id), task != null ? AckOutcome.ACKED : AckOutcome.LEASE_LOST);
            if (task != null) {
                gone(task, Gone.ACKED, now);
                ackedTotal++;
            }
        }
        end();
    }

    void onReject(ConsumerId consumer, List<TaskId> ids, Rejection rejection, Map<TaskId, RejectOutcome> result,
                  long now) {
        begin();
        List<ModelTask> named = heldNamed(ids, consumer);
        List<ModelTask> batch = afterLowestNamed(named, consumer);
        checkKeys("reject", result, ids, idsOf(batch));
        for (TaskId id : ids) {
            ModelTask task = heldBy(id, consumer);
            RejectOutcome expected = task == null ? RejectOutcome.LEASE_LOST
                    : task.attempts >= settings.maxAttempts() ? RejectOutcome.DEAD_LETTERED : RejectOutcome.RETURNED;
            expect("reject", id, result.get(id), expected);
        }
        for (ModelTask task : batch) {
            expect("reject", task.id, result.get(task.id), RejectOutcome.RETURNED_WITH_BATCH);
        }
        if (rejection.blocksPartition()) {
            long until = now + rejection.blockPartitionFor().toMillis();
            for (ModelTask task : named) {
                blockedUntil.merge(task.partition, until, Math::max);
            }
        }
        for (ModelTask task : named) {
            if (task.attempts >= settings.maxAttempts()) {
                dead(task, rejection.reason(), false, now);
            } else {
                task.readyAt = now + rejection.delay().toMillis();
                if (!task.partition.isOrdered()) {
                    task.dueAt = task.readyAt;
                }
                toWaiting(task);
            }
        }
        for (ModelTask task : batch) {
            task.attempts--;
            toWaiting(task);
        }
        end();
    }

    void onFail(ConsumerId consumer, List<TaskId> ids, String reason, Map<TaskId, FailOutcome> result, long now) {
        begin();
        checkKeys("fail", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = heldBy(id, consumer);
            expect("fail", id, result.get(id), task != null ? FailOutcome.DEAD_LETTERED : FailOutcome.LEASE_LOST);
            if (task != null) {
                dead(task, reason, false, now);
            }
        }
        end();
    }

    void onRelease(ConsumerId consumer, List<TaskId> ids, Map<TaskId, ReleaseOutcome> result) {
        begin();
        List<ModelTask> named = heldNamed(ids, consumer);
        List<ModelTask> batch = afterLowestNamed(named, consumer);
        checkKeys("release", result, ids, idsOf(batch));
        for (TaskId id : ids) {
            expect("release", id, result.get(id),
                    heldBy(id, consumer) != null ? ReleaseOutcome.RELEASED : ReleaseOutcome.LEASE_LOST);
        }
        for (ModelTask task : batch) {
            expect("release", task.id, result.get(task.id), ReleaseOutcome.RELEASED);
        }
        for (ModelTask task : concat(named, batch)) {
            task.attempts--;
            toWaiting(task);
        }
        end();
    }

    void onHeartbeat(ConsumerId consumer, long ttlMillis, long now) {
        begin();
        registered.put(consumer, now + ttlMillis);
        end();
    }

    void onReclaim(ReclaimReport report, long now) {
        begin();
        Set<ConsumerId> dead = new HashSet<>();
        registered.forEach((consumer, expiresAt) -> {
            if (expiresAt <= now) {
                dead.add(consumer);
            }
        });
        List<ModelTask> held = held();
        for (ModelTask task : held) {
            if (!registered.containsKey(task.holder)) {
                dead.add(task.holder);
            }
        }
        if (new HashSet<>(report.deadConsumers()).size() != report.deadConsumers().size()
                || !dead.equals(new HashSet<>(report.deadConsumers()))) {
            fail(Invariant.OUTCOMES, "reclaim declared %s dead, expected %s (registrations %s, now %d)",
                    sorted(report.deadConsumers()), sorted(dead), registered, now);
        }
        int returned = 0;
        int deadLettered = 0;
        int timedOut = 0;
        for (ModelTask task : held) {
            if (dead.contains(task.holder)) {
                if (task.attempts >= settings.maxAttempts()) {
                    dead(task, "consumer " + task.holder + " stopped heartbeating", false, now);
                    deadLettered++;
                } else {
                    toWaiting(task);
                    returned++;
                }
            }
        }
        if (settings.hasProcessingTimeout()) {
            long timeout = settings.processingTimeout().toMillis();
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
                    lowest.merge(List.of(task.holder, task.partition), task, (a, b) -> KEY.compare(a, b) <= 0 ? a : b);
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
                if (first != null && KEY.compare(task, first) > 0) {
                    batch.add(task);
                } else if (late.contains(task)) {
                    timed.add(task);
                }
            }
            for (ModelTask task : timed) {
                timedOut++;
                if (task.attempts >= settings.maxAttempts()) {
                    dead(task, "processing timed out after ", true, now);
                    deadLettered++;
                } else {
                    toWaiting(task);
                    returned++;
                }
            }
            for (ModelTask task : batch) {
                task.attempts--;
                toWaiting(task);
                returned++;
            }
        }
        registered.keySet().removeAll(dead);
        if (report.returned() != returned || report.deadLettered() != deadLettered || report.timedOut() != timedOut) {
            fail(Invariant.OUTCOMES, "reclaim reported returned=%d deadLettered=%d timedOut=%d, expected %d/%d/%d",
                    report.returned(), report.deadLettered(), report.timedOut(), returned, deadLettered, timedOut);
        }
        end();
    }

    void onCancel(List<TaskId> ids, Map<TaskId, CancelOutcome> result, long now) {
        begin();
        checkKeys("cancel", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = tasks.get(id);
            State state = task == null ? State.GONE : task.state;
            CancelOutcome expected = switch (state) {
                case WAITING, DEAD -> CancelOutcome.CANCELLED;
                case HELD -> CancelOutcome.IN_FLIGHT;
                case GONE -> CancelOutcome.UNKNOWN;
            };
            expect("cancel", id, result.get(id), expected);
            if (expected == CancelOutcome.CANCELLED) {
                gone(task, Gone.CANCELLED, now);
            }
        }
        end();
    }

    void onBlock(Partition partition, long millis, long now) {
        begin();
        blockedUntil.put(partition, now + millis);
        end();
    }

    void onUnblock(Partition partition) {
        begin();
        blockedUntil.remove(partition);
        end();
    }

    void onPause(boolean pause) {
        begin();
        paused = pause;
        end();
    }

    void onRedrive(List<TaskId> ids, Map<TaskId, RedriveOutcome> result, long now) {
        begin();
        checkKeys("redrive", result, ids, Set.of());
        for (TaskId id : ids) {
            ModelTask task = tasks.get(id);
            boolean dead = task != null && task.state == State.DEAD;
            expect("redrive", id, result.get(id), dead ? RedriveOutcome.REDRIVEN : RedriveOutcome.UNKNOWN);
            if (dead) {
                redrive(task, now);
            }
        }
        end();
    }

    void onRedriveAll(long count, long now) {
        begin();
        List<ModelTask> dead = inState(State.DEAD);
        if (count != dead.size()) {
            fail(Invariant.OUTCOMES, "redriveAll returned %d, there were %d dead letters", count, dead.size());
        }
        dead.forEach(task -> redrive(task, now));
        end();
    }

    void onPurge(List<TaskId> ids, long count, long now) {
        begin();
        int expected = 0;
        for (TaskId id : new LinkedHashSet<>(ids)) {
            ModelTask task = tasks.get(id);
            if (task != null && task.state == State.DEAD) {
                gone(task, Gone.PURGED, now);
                expected++;
            }
        }
        if (count != expected) {
            fail(Invariant.OUTCOMES, "purging %s deleted %d, expected %d", ids, count, expected);
        }
        end();
    }

    void onPurgeAll(long count, long now) {
        begin();
        List<ModelTask> dead = inState(State.DEAD);
        if (count != dead.size()) {
            fail(Invariant.OUTCOMES, "purgeAllDeadLetters returned %d, there were %d dead letters", count, dead.size());
        }
        dead.forEach(task -> gone(task, Gone.PURGED, now));
        end();
    }

    /** Checks one page of the dead-letter list against the model. */
    void onDeadLetters(DeadLetterPage page, int offset, int limit) {
        List<ModelTask> dead = inState(State.DEAD);
        if (page.total() != dead.size()) {
            fail(Invariant.DEAD_LETTERS, "the dead-letter list has total %d, the model %d dead letters: %s",
                    page.total(), dead.size(), dead);
        }
        int expectedSize = Math.max(0, Math.min(limit, dead.size() - offset));
        if (page.items().size() != expectedSize) {
            fail(Invariant.DEAD_LETTERS, "dead letters page at %d (limit %d) has %d items, expected %d", offset,
                    limit, page.items().size(), expectedSize);
        }
        long lastOp = Long.MIN_VALUE;
        Set<TaskId> seen = new HashSet<>();
        for (DeadLetter letter : page.items()) {
            ModelTask task = tasks.get(letter.id());
            if (!seen.add(letter.id())) {
                fail(Invariant.DEAD_LETTERS, "the dead letters list %s twice", letter.id());
            }
            if (task == null || task.state != State.DEAD) {
                fail(Invariant.DEAD_LETTERS, "the dead letters list %s, which is %s", letter.id(),
                        describeId(letter.id()));
            }
            if (task.deadOp < lastOp) {
                fail(Invariant.DEAD_LETTERS, "dead letters not oldest first: %s died before the one listed above it",
                        letter.id());
            }
            lastOp = task.deadOp;
            if (letter.deadAt() != task.deadAt) {
                fail(Invariant.DEAD_LETTERS, "%s died at %d, the dead letter says %d", task.id, task.deadAt,
                        letter.deadAt());
            }
            boolean reasonOk = letter.reason() != null && (task.deadReasonIsPrefix
                    ? letter.reason().startsWith(task.deadReason) : letter.reason().equals(task.deadReason));
            if (!reasonOk) {
                fail(Invariant.DEAD_LETTERS, "dead letter %s has reason '%s', expected '%s'%s", task.id,
                        letter.reason(), task.deadReason, task.deadReasonIsPrefix ? "…" : "");
            }
            checkTask(letter.task(), task, "dead letter " + task.id, false);
        }
    }

    // ---------------------------------------------------------------- after every step

    /** Compares the stats with the model; with {@code sweep}, also every task and the dead-letter list. */
    void afterStep(QueueStats stats, long now, boolean sweep) {
        checkStats(stats, now);
        if (sweep) {
            sweep(now);
        }
    }

    /** After the drain: nothing may be left but dead letters. */
    void checkDrained() {
        List<ModelTask> left = new ArrayList<>(inState(State.WAITING));
        left.addAll(inState(State.HELD));
        if (!left.isEmpty()) {
            fail(Invariant.NO_TASK_LOST, "after the drain these tasks were never delivered: %s", left);
        }
    }

    private void checkStats(QueueStats stats, long now) {
        long ready = 0;
        long delayed = 0;
        long inFlight = 0;
        long dead = 0;
        long oldestReady = Long.MAX_VALUE;
        for (ModelTask task : tasks.values()) {
            switch (task.state) {
                case WAITING -> {
                    if (task.readyAt <= now) {
                        ready++;
                        oldestReady = Math.min(oldestReady, task.readyAt);
                    } else {
                        delayed++;
                    }
                }
                case HELD -> inFlight++;
                case DEAD -> dead++;
                default -> {
                }
            }
        }
        long blocked = blockedUntil.values().stream().filter(until -> until > now).count();
        long live = registered.values().stream().filter(expiresAt -> expiresAt > now).count();
        QueueStats expected = new QueueStats(ready, delayed, inFlight, dead, waiting.size(),
                lockedPartitions().size(), blocked, live, ready == 0 ? 0 : now - oldestReady, publishedTotal,
                ackedTotal, deadLetteredTotal, paused);
        if (!expected.equals(stats)) {
            String invariant = stats.ready() + stats.delayed() + stats.inFlight() + stats.dead()
                    < expected.ready() + expected.delayed() + expected.inFlight() + expected.dead()
                    ? Invariant.NO_TASK_LOST : Invariant.STATS;
            fail(invariant, "stats differ from the model in %s:%n      store: %s%n      model: %s",
                    differingFields(expected, stats), stats, expected);
        }
    }

    private void sweep(long now) {
        for (ModelTask task : tasks.values()) {
            Optional<TaskSnapshot> snapshot = store.get(task.id);
            if (task.state == State.GONE) {
                if (snapshot.isPresent()) {
                    fail(Invariant.GONE_STAYS_GONE, "%s was %s at %d but get() still finds it: %s", task.id,
                            task.gone.name().toLowerCase(Locale.ROOT), task.goneAt, snapshot.get());
                }
                continue;
            }
            if (snapshot.isEmpty()) {
                fail(Invariant.NO_TASK_LOST, "get() finds nothing for %s", task);
            }
            TaskSnapshot found = snapshot.get();
            TaskState expected = switch (task.state) {
                case HELD -> TaskState.IN_FLIGHT;
                case DEAD -> TaskState.DEAD;
                default -> task.readyAt <= now ? TaskState.PENDING : TaskState.DELAYED;
            };
            Optional<ConsumerId> holder = Optional.ofNullable(task.state == State.HELD ? task.holder : null);
            if (found.state() != expected || !found.holder().equals(holder)) {
                fail(Invariant.NO_TASK_LOST, "get(%s) says %s %s, expected %s %s (%s)", task.id, found.state(),
                        found.holder().map(Object::toString).orElse(""), expected,
                        holder.map(Object::toString).orElse(""), task);
            }
            checkTask(found.task(), task, "get(" + task.id + ")", task.state != State.DEAD);
        }
        int offset = 0;
        int limit = 500;
        DeadLetterPage page;
        do {
            page = store.deadLetters(offset, limit);
            onDeadLetters(page, offset, limit);
            offset += page.items().size();
        } while (!page.items().isEmpty() && offset < page.total());
    }

    /** A task as the store shows it against the model; times are not specified for dead letters. */
    private void checkTask(Task actual, ModelTask expected, String where, boolean checkTimes) {
        if (!actual.id().equals(expected.id) || !actual.partition().equals(expected.partition)
                || actual.priority().value() != expected.priority
                || !Arrays.equals(actual.payload(), expected.payload)) {
            fail(Invariant.TASK_FIELDS, "%s shows %s, published as %s", where, actual, expected);
        }
        if (actual.attempts() != expected.attempts) {
            fail(Invariant.ATTEMPTS, "%s has attempts=%d, expected %d: %s", where, actual.attempts(),
                    expected.attempts, expected);
        }
        if (checkTimes && (actual.dueAt() != expected.dueAt || actual.readyAt() != expected.readyAt)) {
            fail(Invariant.TASK_FIELDS, "%s has dueAt=%d readyAt=%d, expected %d and %d", where, actual.dueAt(),
                    actual.readyAt(), expected.dueAt, expected.readyAt);
        }
        observeSeq(expected, actual.seq(), where);
    }

    private void observeSeq(ModelTask task, long seq, String where) {
        if (task.seq >= 0) {
            if (task.seq != seq) {
                fail(Invariant.TASK_FIELDS, "%s has seq %d, it was %d before", where, seq, task.seq);
            }
            return;
        }
        Map.Entry<Long, Long> before = seqByCreated.lowerEntry(task.created);
        Map.Entry<Long, Long> after = seqByCreated.higherEntry(task.created);
        if ((before != null && before.getValue() >= seq) || (after != null && after.getValue() <= seq)) {
            fail(Invariant.TASK_FIELDS, "%s has seq %d, out of publish order with the seqs seen so far %s", where,
                    seq, seqByCreated.values());
        }
        seqByCreated.put(task.created, seq);
        task.seq = seq;
    }

    // ---------------------------------------------------------------- model helpers

    private void begin() {
        op++;
    }

    /** Partitions that came into existence get a turn; emptied ones lose theirs. */
    private void end() {
        for (Partition partition : waiting.keySet()) {
            turns.putIfAbsent(partition, new Turn(op, 0));
        }
        turns.keySet().retainAll(waiting.keySet());
    }

    private void toWaiting(ModelTask task) {
        task.state = State.WAITING;
        task.holder = null;
        waiting.computeIfAbsent(task.partition, partition -> new TreeSet<>(KEY)).add(task);
    }

    private void leaveWaiting(ModelTask task) {
        if (task.state != State.WAITING) {
            return;
        }
        TreeSet<ModelTask> set = waiting.get(task.partition);
        set.remove(task);
        if (set.isEmpty()) {
            waiting.remove(task.partition);
        }
    }

    private void dead(ModelTask task, String reason, boolean prefix, long now) {
        leaveWaiting(task);
        task.state = State.DEAD;
        task.holder = null;
        task.deadOp = op;
        task.deadAt = now;
        task.deadReason = reason;
        task.deadReasonIsPrefix = prefix;
        deadLetteredTotal++;
    }

    private void gone(ModelTask task, Gone how, long now) {
        leaveWaiting(task);
        task.state = State.GONE;
        task.holder = null;
        task.gone = how;
        task.goneAt = now;
    }

    private void redrive(ModelTask task, long now) {
        task.attempts = 0;
        task.dueAt = now;
        task.readyAt = now;
        toWaiting(task);
    }

    /** The head of a partition: regular, its lowest-key ready task; ordered, its lowest-key task if ready. */
    private ModelTask head(Partition partition, long now) {
        TreeSet<ModelTask> set = waiting.get(partition);
        if (set == null) {
            return null;
        }
        if (partition.isOrdered()) {
            ModelTask first = set.first();
            return first.readyAt <= now ? first : null;
        }
        for (ModelTask task : set) {
            if (task.readyAt <= now) {
                return task;
            }
        }
        return null;
    }

    private boolean eligible(Partition partition, Set<Partition> locked, long now) {
        return !paused && !blocked(partition, now) && head(partition, now) != null
                && !(partition.isOrdered() && locked.contains(partition));
    }

    private boolean blocked(Partition partition, long now) {
        Long until = blockedUntil.get(partition);
        return until != null && until > now;
    }

    private Set<Partition> lockedPartitions() {
        Set<Partition> locked = new HashSet<>();
        for (ModelTask task : tasks.values()) {
            if (task.state == State.HELD && task.partition.isOrdered()) {
                locked.add(task.partition);
            }
        }
        return locked;
    }

    private ConsumerId holderOf(Partition partition) {
        for (ModelTask task : tasks.values()) {
            if (task.state == State.HELD && task.partition.equals(partition)) {
                return task.holder;
            }
        }
        return null;
    }

    private ModelTask heldBy(TaskId id, ConsumerId consumer) {
        ModelTask task = tasks.get(id);
        return task != null && task.state == State.HELD && task.holder.equals(consumer) ? task : null;
    }

    private List<ModelTask> heldNamed(List<TaskId> ids, ConsumerId consumer) {
        List<ModelTask> named = new ArrayList<>();
        for (TaskId id : ids) {
            ModelTask task = heldBy(id, consumer);
            if (task != null) {
                named.add(task);
            }
        }
        return named;
    }

    /**
     * Rule 5: the tasks of an ordered partition the consumer holds, not named, with a key after the
     * lowest named one.
     */
    private List<ModelTask> afterLowestNamed(List<ModelTask> named, ConsumerId consumer) {
        Map<Partition, ModelTask> lowest = new HashMap<>();
        for (ModelTask task : named) {
            if (task.partition.isOrdered()) {
                lowest.merge(task.partition, task, (a, b) -> KEY.compare(a, b) <= 0 ? a : b);
            }
        }
        List<ModelTask> batch = new ArrayList<>();
        for (ModelTask task : held()) {
            ModelTask first = lowest.get(task.partition);
            if (first != null && task.holder.equals(consumer) && KEY.compare(task, first) > 0
                    && !named.contains(task)) {
                batch.add(task);
            }
        }
        return batch;
    }

    private List<ModelTask> held() {
        return inState(State.HELD);
    }

    private List<ModelTask> inState(State state) {
        List<ModelTask> found = new ArrayList<>();
        for (ModelTask task : tasks.values()) {
            if (task.state == state) {
                found.add(task);
            }
        }
        return found;
    }

    private List<Partition> sortedPartitions() {
        List<Partition> partitions = new ArrayList<>(waiting.keySet());
        partitions.sort(Comparator.comparing(Partition::code));
        return partitions;
    }

    /** The result names every id given, in the order given, plus exactly the expected extra ids. */
    private void checkKeys(String operation, Map<TaskId, ?> result, List<TaskId> named, Set<TaskId> extras) {
        Set<TaskId> expected = new LinkedHashSet<>(named);
        expected.addAll(extras);
        if (!result.keySet().equals(expected)) {
            fail(Invariant.OUTCOMES, "%s of %s answered for %s, expected exactly %s", operation, named,
                    result.keySet(), expected);
        }
        Iterator<TaskId> inOrder = named.iterator();
        TaskId next = inOrder.hasNext() ? inOrder.next() : null;
        for (TaskId key : result.keySet()) {
            if (key.equals(next)) {
                next = inOrder.hasNext() ? inOrder.next() : null;
            }
        }
        if (next != null) {
            fail(Invariant.OUTCOMES, "%s answers %s, not in the order of the ids given %s", operation,
                    result.keySet(), named);
        }
    }

    private void expect(String operation, TaskId id, Object actual, Object expected) {
        if (!Objects.equals(actual, expected)) {
            fail(Invariant.OUTCOMES, "%s of %s: expected %s, got %s (%s)", operation, id, expected, actual,
                    describeId(id));
        }
    }

    private String describeId(TaskId id) {
        ModelTask task = tasks.get(id);
        return task == null ? "never published" : task.toString();
    }

    private static Set<TaskId> idsOf(List<ModelTask> tasks) {
        return tasks.stream().map(task -> task.id).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static List<ModelTask> concat(List<ModelTask> a, List<ModelTask> b) {
        List<ModelTask> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> leaseIds(List<Lease> leases) {
        return leases.stream().map(lease -> lease.id().value()).toList();
    }

    private static List<String> sorted(Collection<ConsumerId> consumers) {
        return consumers.stream().map(ConsumerId::value).sorted().toList();
    }

    private static String differingFields(QueueStats expected, QueueStats actual) {
        List<String> names = new ArrayList<>();
        var components = QueueStats.class.getRecordComponents();
        for (var component : components) {
            try {
                Object a = component.getAccessor().invoke(expected);
                Object b = component.getAccessor().invoke(actual);
                if (!Objects.equals(a, b)) {
                    names.add(component.getName() + " " + b + " (expected " + a + ")");
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(", ", names);
    }

    private static void fail(String invariant, String format, Object... args) {
        throw new InvariantViolation(invariant, String.format(format, args));
    }
}
