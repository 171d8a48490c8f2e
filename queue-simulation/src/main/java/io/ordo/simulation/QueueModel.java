package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishOutcome;
import io.ordo.simulation.ModelTask.Gone;
import io.ordo.simulation.ModelTask.State;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The state the rules say one view of the queue is in (its own view, or one consumer group's: each is a
 * queue of its own, docs/groups.md), as the checks follow it: every task incarnation, what waits in each
 * partition in key order, turns, registrations, blocks, pause, settings, rate-limit buckets and the running
 * totals. What spans the views (creation order, seqs, schedules) is {@link ViewsModel}'s. It checks nothing
 * itself; the invariant families read it and move it on.
 */
final class QueueModel {

    /** When a partition was last given a turn; equal values mean the rules leave their order open. */
    record Turn(long op, int pick) implements Comparable<Turn> {
        @Override
        public int compareTo(Turn other) {
            return op != other.op ? Long.compare(op, other.op) : Integer.compare(pick, other.pick);
        }
    }

    QueueSettings settings;
    final TokenBuckets buckets = new TokenBuckets();
    /** The latest incarnation of every id ever published, gone ones included. */
    final Map<TaskId, ModelTask> tasks = new LinkedHashMap<>();
    final Map<Partition, TreeSet<ModelTask>> waiting = new HashMap<>();
    final Map<Partition, Turn> turns = new HashMap<>();
    final Map<ConsumerId, Long> registered = new HashMap<>();
    final Map<Partition, Long> blockedUntil = new HashMap<>();
    boolean paused;
    long op;
    long publishedTotal;
    long ackedTotal;
    long deadLetteredTotal;
    long deadLettersDroppedTotal;
    /** Deaths in this view so far: the death order of the next dead letter. */
    private long deaths;
    /**
     * Acked tasks kept as completed while the view keeps results (docs/task-control.md, "Results"), by id: until
     * when, and the result kept. They stay until the reaper's expireCompleted (or a cancel) deletes them.
     */
    final Map<TaskId, Long> keptUntil = new LinkedHashMap<>();
    final Map<TaskId, byte[]> keptResults = new HashMap<>();
    /** The dead letters the caps dropped in the step in progress. */
    private final List<ModelTask> droppedThisStep = new ArrayList<>();

    QueueModel(QueueSettings settings) {
        this.settings = settings;
    }

    void begin() {
        op++;
        droppedThisStep.clear();
    }

    /** Partitions that came into existence get a turn; emptied ones lose theirs. */
    void end() {
        for (Partition partition : waiting.keySet()) {
            turns.putIfAbsent(partition, new Turn(op, 0));
        }
        turns.keySet().retainAll(waiting.keySet());
    }

    /** A publish created the task, {@code created}-th of the queue's (in every view it reached). */
    void create(NewTask request, long created, long now) {
        ModelTask task = new ModelTask(request, created, now);
        tasks.put(task.id, task);
        toWaiting(task);
        publishedTotal++;
    }

    /** The outcome the rules require of this view alone, or null where they allow either. */
    PublishOutcome expectedPublish(TaskId id, long now) {
        ModelTask existing = tasks.get(id);
        if (existing != null && existing.state != State.GONE || keptUntil.containsKey(id)) {
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

    /**
     * For a deleted group: whether an id it acked is still remembered (DUPLICATE), no longer (CREATED), or
     * at the window's edge (null); CREATED for any other id, which the group's deletion took with it.
     */
    PublishOutcome rememberedAck(TaskId id, long now) {
        ModelTask existing = tasks.get(id);
        if (existing == null || existing.state != State.GONE || existing.gone != Gone.ACKED
                || !settings.hasDedupWindow()) {
            return PublishOutcome.CREATED;
        }
        long age = now - existing.goneAt;
        long window = settings.dedupWindow().toMillis();
        return age < window ? PublishOutcome.DUPLICATE : age == window ? null : PublishOutcome.CREATED;
    }

    void toWaiting(ModelTask task) {
        task.state = State.WAITING;
        task.leaveHolder();
        waiting.computeIfAbsent(task.partition, partition -> new TreeSet<>(ModelTask.KEY)).add(task);
    }

    void leaveWaiting(ModelTask task) {
        if (task.state != State.WAITING) {
            return;
        }
        TreeSet<ModelTask> set = waiting.get(task.partition);
        set.remove(task);
        if (set.isEmpty()) {
            waiting.remove(task.partition);
        }
    }

    /**
     * The task dies, and the dead letters past the caps are dropped, at most as many as one death drops. The
     * callers let tasks die in the order the rules say one call does (docs/semantics.md, "Dead letters kept
     * within bounds"), so the model knows which the caps drop.
     */
    void dead(ModelTask task, String reason, boolean prefix, long now) {
        leaveWaiting(task);
        task.state = State.DEAD;
        task.leaveHolder();
        task.deadOp = op;
        task.deathOrder = ++deaths;
        task.deadAt = now;
        task.deadReason = reason;
        task.deadReasonIsPrefix = prefix;
        deadLetteredTotal++;
        dropPastCaps(QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH, now);
    }

    /** The oldest dead letters while the caps say so, at most {@code most}: gone as dropped; how many. */
    long dropPastCaps(long most, long now) {
        List<ModelTask> dead = inState(State.DEAD);
        dead.sort(Comparator.comparingLong(task -> task.deathOrder));
        int dropped = 0;
        while (dropped < most && dropped < dead.size()
                && settings.dropsOldestDeadLetter(dead.size() - dropped, dead.get(dropped).deadAt, now)) {
            gone(dead.get(dropped), Gone.DROPPED, now);
            droppedThisStep.add(dead.get(dropped));
            dropped++;
        }
        deadLettersDroppedTotal += dropped;
        return dropped;
    }

    void gone(ModelTask task, Gone how, long now) {
        leaveWaiting(task);
        task.state = State.GONE;
        task.leaveHolder();
        task.gone = how;
        task.goneAt = now;
        if (how == Gone.ACKED && settings.keepsResults()) {
            keptUntil.put(task.id, now + settings.resultRetention().toMillis());
            keptResults.put(task.id, new byte[0]);
        }
    }

    /** A kept completed task deleted (expired or cancelled): its ack stays remembered as any ack is. */
    void forgetCompleted(TaskId id) {
        keptUntil.remove(id);
        keptResults.remove(id);
    }

    void redrive(ModelTask task, long now) {
        task.attempts = 0;
        task.dueAt = now;
        task.readyAt = now;
        toWaiting(task);
    }

    /** The tasks that died in the step in progress and were dropped by the caps in it. */
    List<ModelTask> droppedThisStep() {
        return droppedThisStep.stream().filter(task -> task.deadOp == op).toList();
    }

    /** The head of a partition: regular, its lowest-key ready task; ordered, its lowest-key task if ready. */
    ModelTask head(Partition partition, long now) {
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

    boolean eligible(Partition partition, Set<Partition> locked, long now) {
        return !paused && !blocked(partition, now) && head(partition, now) != null
                && !(partition.isOrdered() && locked.contains(partition)) && underCap(partition)
                && buckets.partitionTokens(settings, partition, now) >= 1;
    }

    /** Below its concurrency cap, or without one. */
    boolean underCap(Partition partition) {
        int cap = settings.concurrencyOf(partition);
        return cap == 0 || heldIn(partition) < cap;
    }

    /** Tasks of the partition in flight; of the whole queue with null. */
    int heldIn(Partition partition) {
        int held = 0;
        for (ModelTask task : tasks.values()) {
            if (task.state == State.HELD && (partition == null || task.partition.equals(partition))) {
                held++;
            }
        }
        return held;
    }

    boolean blocked(Partition partition, long now) {
        Long until = blockedUntil.get(partition);
        return until != null && until > now;
    }

    Set<Partition> lockedPartitions() {
        Set<Partition> locked = new HashSet<>();
        for (ModelTask task : tasks.values()) {
            if (task.state == State.HELD && task.partition.isOrdered()) {
                locked.add(task.partition);
            }
        }
        return locked;
    }

    ConsumerId holderOf(Partition partition) {
        for (ModelTask task : tasks.values()) {
            if (task.state == State.HELD && task.partition.equals(partition)) {
                return task.holder;
            }
        }
        return null;
    }

    ModelTask heldBy(TaskId id, ConsumerId consumer) {
        ModelTask task = tasks.get(id);
        return task != null && task.state == State.HELD && task.holder.equals(consumer) ? task : null;
    }

    List<ModelTask> heldNamed(List<TaskId> ids, ConsumerId consumer) {
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
    List<ModelTask> afterLowestNamed(List<ModelTask> named, ConsumerId consumer) {
        Map<Partition, ModelTask> lowest = new HashMap<>();
        for (ModelTask task : named) {
            if (task.partition.isOrdered()) {
                lowest.merge(task.partition, task, (a, b) -> ModelTask.KEY.compare(a, b) <= 0 ? a : b);
            }
        }
        List<ModelTask> batch = new ArrayList<>();
        for (ModelTask task : held()) {
            ModelTask first = lowest.get(task.partition);
            if (first != null && task.holder.equals(consumer) && ModelTask.KEY.compare(task, first) > 0
                    && !named.contains(task)) {
                batch.add(task);
            }
        }
        return batch;
    }

    List<ModelTask> held() {
        return inState(State.HELD);
    }

    List<ModelTask> inState(State state) {
        List<ModelTask> found = new ArrayList<>();
        for (ModelTask task : tasks.values()) {
            if (task.state == state) {
                found.add(task);
            }
        }
        return found;
    }

    List<Partition> sortedPartitions() {
        List<Partition> partitions = new ArrayList<>(waiting.keySet());
        partitions.sort(Comparator.comparing(Partition::code));
        return partitions;
    }

    String describeId(TaskId id) {
        ModelTask task = tasks.get(id);
        return task == null ? "never published" : task.toString();
    }
}
