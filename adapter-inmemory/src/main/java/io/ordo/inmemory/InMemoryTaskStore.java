package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.domain.Validate;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.Reasons;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.ConsumeRequest;
import io.ordo.ports.ConsumerHeartbeat;
import io.ordo.ports.DeadLetterPageRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The reference store: docs/semantics.md written as plain Java over plain collections. Every
 * operation holds the store's monitor, which makes it atomic like a Lua script on Redis; every
 * decision depends only on the calls and the clock, which makes runs reproducible. It keeps the cost
 * bounds docs/redis-design.md gives the Redis stores: the partitions a consume may serve are kept in
 * serving order as they change (as Redis's {@code ready}), with the times at which time alone changes
 * one (its {@code delayed}, {@code wake} and {@code blocked}), and tasks in flight are indexed by
 * consumer and partition, so no operation scans the partitions, the waiting tasks or the tasks in flight.
 */
final class InMemoryTaskStore implements TaskStore {
    /** How often a waiting consume looks at the clock again: a virtual clock moves without telling anyone. */
    private static final long WAIT_POLL_MILLIS = 5;
    private static final Comparator<PartitionState> SERVING_ORDER = Comparator
            .comparingInt((PartitionState state) -> -state.headPriority).thenComparingLong(state -> state.turn);
    private static final Comparator<PartitionState> TIMER_ORDER = Comparator
            .comparingLong((PartitionState state) -> state.timerAt).thenComparingLong(state -> state.serial);
    private static final Comparator<Lease> LEASE_BY_KEY = Comparator.comparing((Lease lease) -> lease.task().orderingKey());

    private final QueueName queue;
    private final Clock clock;

    /** Tasks waiting in their partitions; a partition exists while it has one. */
    private final Map<Partition, PartitionState> partitions = new HashMap<>();
    /** Where each waiting task is, by id. */
    private final Map<TaskId, Task> waiting = new HashMap<>();
    /** The same waiting tasks by when they are ready (stats). */
    private final WaitingByReadyTime waitingByReadyTime = new WaitingByReadyTime();
    /** Tasks in flight, by id. */
    private final Map<TaskId, Lease> held = new HashMap<>();
    /** The same tasks in flight by consumer and partition, in key order (lock releases, reclaims). */
    private final Map<ConsumerId, Map<Partition, TreeSet<Lease>>> heldByConsumer = new HashMap<>();
    /** Dead letters in the order they died. */
    private final LinkedHashMap<TaskId, DeadLetter> dead = new LinkedHashMap<>();
    /** Ordered partitions and the consumer holding each. */
    private final Map<Partition, ConsumerId> locks = new HashMap<>();
    /** When each held ordered partition was locked (inspection only). */
    private final Map<Partition, Long> lockedAt = new HashMap<>();
    private final Map<Partition, Long> blockedUntil = new HashMap<>();
    /** Partitions a consume may serve now: highest head priority first, then least recently served. */
    private final TreeSet<PartitionState> eligible = new TreeSet<>(SERVING_ORDER);
    /** Partitions that time alone will change (a task becoming ready, a block ending), earliest first. */
    private final TreeSet<PartitionState> timed = new TreeSet<>(TIMER_ORDER);
    /** Partitions changed since the last consume, looked at again by the next one. */
    private final Set<PartitionState> touched = new LinkedHashSet<>();
    /** Registered consumers and when each expires. */
    private final Map<ConsumerId, Long> consumers = new HashMap<>();
    /** When each registered consumer last heartbeated or consumed (inspection only). */
    private final Map<ConsumerId, Long> lastHeartbeats = new HashMap<>();
    /** Ids of acked tasks still inside the dedup window, with when they may be used again. */
    private final Map<TaskId, Long> recentlyAcked = new HashMap<>();

    private QueueSettings settings = QueueSettings.DEFAULTS;
    private boolean paused;
    /** Whether settings were ever stored (Redis keeps them in the queue's meta key from then on). */
    private boolean configured;
    private long lastSeq;
    private long lastTurn;
    private long publishedTotal;
    private long ackedTotal;
    private long deadLetteredTotal;

    /** Set when the factory is closed; read under the monitor, like everything else. */
    private boolean closed;

    InMemoryTaskStore(QueueName queue, Clock clock) {
        this.queue = queue;
        this.clock = clock;
    }

    @Override
    public QueueName queue() {
        return queue;
    }

    /** Closing the factory: every later call throws, and a consume waiting now returns with that. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the store of queue " + queue + " was closed with its factory");
        }
    }

    // ---------------------------------------------------------------- publish

    @Override
    public synchronized List<PublishReceipt> publish(List<NewTask> tasks) {
        ensureOpen();
        List<NewTask> batch = PublishRules.validate(tasks, settings);
        long now = clock.millis();
        List<PublishReceipt> receipts = new ArrayList<>(batch.size());
        for (NewTask request : batch) {
            if (exists(request.id(), now)) {
                receipts.add(new PublishReceipt(request.id(), PublishOutcome.DUPLICATE));
                continue;
            }
            putWaiting(Task.published(request, ++lastSeq, now));
            publishedTotal++;
            receipts.add(new PublishReceipt(request.id(), PublishOutcome.CREATED));
        }
        notifyAll();
        return receipts;
    }

    private boolean exists(TaskId id, long now) {
        Long until = recentlyAcked.get(id);
        if (until != null && until <= now) {
            recentlyAcked.remove(id);
            until = null;
        }
        return until != null || waiting.containsKey(id) || held.containsKey(id) || dead.containsKey(id);
    }

    // ---------------------------------------------------------------- consume

    @Override
    public synchronized List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        ensureOpen();
        ConsumeRequest.taking(consumer, max, wait);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            ensureOpen(); // again after every wait: closing the factory ends a waiting consume
            List<Lease> taken = takeDue(consumer, max);
            long remainingNanos = deadline - System.nanoTime();
            if (!taken.isEmpty() || remainingNanos <= 0) {
                return taken;
            }
            try {
                long pollMillis = Math.min(WAIT_POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(remainingNanos) + 1);
                wait(pollMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
    }

    private List<Lease> takeDue(ConsumerId consumer, int max) {
        long now = clock.millis();
        long expiresAt = now + settings.heartbeatTtl().toMillis();
        consumers.merge(consumer, expiresAt, Math::max);
        lastHeartbeats.put(consumer, now);
        List<Lease> taken = new ArrayList<>();
        if (paused) {
            return taken;
        }
        settle(now);
        while (taken.size() < max && !eligible.isEmpty()) {
            PartitionState state = eligible.pollFirst();
            state.eligible = false;
            if (state.partition.isOrdered()) {
                takeOrderedRun(state, consumer, max - taken.size(), now, taken);
                locks.put(state.partition, consumer);
                lockedAt.put(state.partition, now);
            } else {
                take(state.head(now).orElseThrow(), consumer, now, taken);
            }
            state.turn = ++lastTurn;
            refresh(state, now);
        }
        return taken;
    }

    /** Looks again at the partitions changed since the last consume and at those whose time has come. */
    private void settle(long now) {
        for (PartitionState state : touched) {
            refresh(state, now);
        }
        touched.clear();
        while (!timed.isEmpty() && timed.first().timerAt <= now) {
            refresh(timed.first(), now);
        }
    }

    /**
     * Puts a partition where it belongs now: eligible (not blocked, not locked, head ready: semantics.md)
     * in serving order, and timed if time alone will change that; a partition without tasks nowhere.
     */
    private void refresh(PartitionState state, long now) {
        unschedule(state);
        if (partitions.get(state.partition) != state) {
            return; // emptied since
        }
        long timer = state.nextChangeAfter(now);
        boolean blocked = isBlocked(state.partition, now);
        if (blocked) {
            timer = Math.min(timer, blockedUntil.get(state.partition));
        } else if (!locks.containsKey(state.partition)) {
            Optional<Task> head = state.head(now);
            if (head.isPresent()) {
                state.headPriority = head.get().priority().value();
                state.eligible = true;
                eligible.add(state);
            }
        }
        if (timer != PartitionState.NO_TIMER) {
            state.timerAt = timer;
            timed.add(state);
        }
    }

    private void unschedule(PartitionState state) {
        if (state.eligible) {
            eligible.remove(state);
            state.eligible = false;
        }
        if (state.timerAt != PartitionState.NO_TIMER) {
            timed.remove(state);
            state.timerAt = PartitionState.NO_TIMER;
        }
    }

    private void touch(Partition partition) {
        PartitionState state = partitions.get(partition);
        if (state != null) {
            touched.add(state);
        }
    }

    /** The consecutive run of ready tasks from an ordered partition's head, in key order. */
    private void takeOrderedRun(PartitionState state, ConsumerId consumer, int room, long now, List<Lease> taken) {
        List<Task> run = new ArrayList<>();
        for (Task task : state.waiting) {
            if (run.size() == room || !task.isReadyAt(now)) {
                break;
            }
            run.add(task);
        }
        run.forEach(task -> take(task, consumer, now, taken));
    }

    private void take(Task task, ConsumerId consumer, long now, List<Lease> taken) {
        removeWaiting(task);
        Lease lease = new Lease(task.withAttempts(task.attempts() + 1), consumer, now);
        hold(lease);
        taken.add(lease);
    }

    // ---------------------------------------------------------------- ack, reject, fail, release

    @Override
    public synchronized Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        List<TaskId> checked = PublishRules.ids("ids", ids);
        long now = clock.millis();
        Map<TaskId, AckOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            Lease lease = heldBy(consumer, id);
            if (lease == null) {
                outcomes.putIfAbsent(id, AckOutcome.LEASE_LOST);
                continue;
            }
            unhold(id);
            ackedTotal++;
            if (settings.hasDedupWindow()) {
                recentlyAcked.put(id, now + settings.dedupWindow().toMillis());
            }
            releaseLockIfDone(consumer, lease.partition());
            outcomes.put(id, AckOutcome.ACKED);
        }
        notifyAll(); // a released lock makes its partition's next tasks deliverable
        return outcomes;
    }

    /** One monitor: the acks and the first look for tasks happen with no other call in between. */
    @Override
    public synchronized AckedAndTaken ackAndConsume(ConsumerId consumer, Collection<TaskId> acks, int max,
                                                    Duration wait) {
        ensureOpen();
        return TaskStore.super.ackAndConsume(consumer, acks, max, wait);
    }

    @Override
    public synchronized Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids,
                                                          Rejection rejection) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        Validate.notNull("rejection", rejection);
        List<TaskId> checked = PublishRules.ids("ids", ids);
        long now = clock.millis();
        Map<TaskId, RejectOutcome> outcomes = giveBack(consumer, checked,
                (lease, named) -> {
                    if (!named) {
                        returnUnprocessed(lease);
                        return RejectOutcome.RETURNED_WITH_BATCH;
                    }
                    if (lease.task().attempts() >= settings.maxAttempts()) {
                        bury(lease.task().withLastError(rejection.reason()), now);
                        return RejectOutcome.DEAD_LETTERED;
                    }
                    putWaiting(lease.task().retriedAt(now + rejection.delay().toMillis(), rejection.reason()));
                    return RejectOutcome.RETURNED;
                }, RejectOutcome.LEASE_LOST);
        if (rejection.blocksPartition()) {
            long until = now + rejection.blockPartitionFor().toMillis();
            for (Map.Entry<TaskId, RejectOutcome> entry : outcomes.entrySet()) {
                if (entry.getValue() == RejectOutcome.RETURNED || entry.getValue() == RejectOutcome.DEAD_LETTERED) {
                    Partition partition = partitionOfGivenBack(entry.getKey());
                    blockedUntil.merge(partition, until, Math::max);
                    touch(partition);
                }
            }
        }
        notifyAll();
        return outcomes;
    }

    @Override
    public synchronized Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        List<TaskId> checked = PublishRules.ids("ids", ids);
        String why = Reasons.truncate(reason);
        long now = clock.millis();
        Map<TaskId, FailOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            Lease lease = heldBy(consumer, id);
            if (lease == null) {
                outcomes.putIfAbsent(id, FailOutcome.LEASE_LOST);
                continue;
            }
            unhold(id);
            bury(lease.task().withLastError(why), now);
            releaseLockIfDone(consumer, lease.partition());
            outcomes.put(id, FailOutcome.DEAD_LETTERED);
        }
        notifyAll(); // a released lock makes its partition's next tasks deliverable
        return outcomes;
    }

    @Override
    public synchronized Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        List<TaskId> checked = PublishRules.ids("ids", ids);
        Map<TaskId, ReleaseOutcome> outcomes = giveBack(consumer, checked, (lease, named) -> {
            returnUnprocessed(lease);
            return ReleaseOutcome.RELEASED;
        }, ReleaseOutcome.LEASE_LOST);
        notifyAll();
        return outcomes;
    }

    /**
     * Takes the named tasks back from the consumer and, per ordered partition, every task it holds
     * after the lowest named one (SPEC rule 5). {@code giveBack} decides each task's fate; its
     * second argument says whether the task was named in the call.
     */
    private <O> Map<TaskId, O> giveBack(ConsumerId consumer, List<TaskId> ids,
                                        BiFunction<Lease, Boolean, O> giveBack, O leaseLost) {
        Map<TaskId, O> outcomes = new LinkedHashMap<>();
        Set<TaskId> named = new HashSet<>();
        Map<Partition, Lease> lowestNamedByOrderedPartition = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Lease lease = heldBy(consumer, id);
            if (lease == null) {
                if (!named.contains(id)) {
                    outcomes.putIfAbsent(id, leaseLost);
                }
                continue;
            }
            named.add(id);
            outcomes.put(id, null);
            if (lease.partition().isOrdered()) {
                lowestNamedByOrderedPartition.merge(lease.partition(), lease,
                        (a, b) -> a.task().orderingKey().compareTo(b.task().orderingKey()) <= 0 ? a : b);
            }
        }
        List<Lease> affected = new ArrayList<>();
        for (TaskId id : named) {
            affected.add(held.get(id));
        }
        for (Lease lowest : lowestNamedByOrderedPartition.values()) {
            heldInPartition(consumer, lowest.partition()).stream()
                    .filter(lease -> !named.contains(lease.id()))
                    .filter(lease -> lease.task().orderingKey().compareTo(lowest.task().orderingKey()) > 0)
                    .forEach(affected::add);
        }
        // Key order per partition, so tasks re-enter their partitions the way they left.
        affected.sort(Comparator.comparing((Lease lease) -> lease.task().seq()));
        Map<TaskId, O> decided = new HashMap<>();
        for (Lease lease : affected) {
            unhold(lease.id());
            decided.put(lease.id(), giveBack.apply(lease, named.contains(lease.id())));
        }
        for (Lease lease : affected) {
            releaseLockIfDone(consumer, lease.partition());
        }
        outcomes.replaceAll((id, outcome) -> outcome == null ? decided.get(id) : outcome);
        affected.stream().filter(lease -> !named.contains(lease.id()))
                .sorted(Comparator.comparing((Lease lease) -> lease.task().orderingKey()))
                .forEach(lease -> outcomes.put(lease.id(), decided.get(lease.id())));
        return outcomes;
    }

    /** A delivery that never ran: back in place, and it does not count as an attempt. */
    private void returnUnprocessed(Lease lease) {
        putWaiting(lease.task().withAttempts(lease.task().attempts() - 1));
    }

    private Partition partitionOfGivenBack(TaskId id) {
        Task task = waiting.get(id);
        return task != null ? task.partition() : dead.get(id).task().partition();
    }

    // ---------------------------------------------------------------- blocks, consumers, reclaim

    @Override
    public synchronized void blockPartition(Partition partition, Duration duration) {
        ensureOpen();
        Validate.notNull("partition", partition);
        Validate.duration("duration", duration, Rejection.MAX_DURATION);
        blockedUntil.put(partition, clock.millis() + duration.toMillis());
        touch(partition);
    }

    @Override
    public synchronized void unblockPartition(Partition partition) {
        ensureOpen();
        Validate.notNull("partition", partition);
        blockedUntil.remove(partition);
        touch(partition);
        notifyAll();
    }

    private boolean isBlocked(Partition partition, long now) {
        Long until = blockedUntil.get(partition);
        if (until != null && until <= now) {
            blockedUntil.remove(partition);
            return false;
        }
        return until != null;
    }

    @Override
    public synchronized void heartbeat(ConsumerId consumer, Duration ttl) {
        ensureOpen();
        new ConsumerHeartbeat(consumer, ttl);
        long now = clock.millis();
        consumers.put(consumer, now + ttl.toMillis());
        lastHeartbeats.put(consumer, now);
    }

    @Override
    public synchronized ReclaimReport reclaim() {
        ensureOpen();
        long now = clock.millis();
        List<ConsumerId> deadConsumers = consumers.entrySet().stream()
                .filter(entry -> entry.getValue() <= now)
                .map(Map.Entry::getKey)
                .sorted(Comparator.comparing(ConsumerId::value))
                .toList();
        int returned = 0;
        int buried = 0;
        for (ConsumerId consumer : deadConsumers) {
            consumers.remove(consumer);
            lastHeartbeats.remove(consumer);
            // a consumer holds a lock only while it holds a task of the partition (releaseLockIfDone)
            Set<Partition> theirPartitions = Set.copyOf(heldByConsumer.getOrDefault(consumer, Map.of()).keySet());
            for (Lease lease : heldBy(consumer)) {
                unhold(lease.id());
                if (takeBackCrashed(lease.task().reclaimed(Reasons.holderStoppedHeartbeating(consumer),
                        ReclaimCause.HOLDER_STOPPED_HEARTBEATING), now)) {
                    buried++;
                } else {
                    returned++;
                }
            }
            for (Partition partition : theirPartitions) {
                if (locks.remove(partition, consumer)) {
                    lockedAt.remove(partition);
                    touch(partition);
                }
            }
        }
        int timedOut = 0;
        if (settings.hasProcessingTimeout()) {
            long timeout = settings.processingTimeout().toMillis();
            List<Lease> overdue = held.values().stream()
                    .filter(lease -> lease.leasedAt() + timeout <= now)
                    // key order: within an ordered batch the first task by key is the one that timed out
                    .sorted(Comparator.comparing((Lease lease) -> lease.task().orderingKey()))
                    .toList();
            for (Lease lease : overdue) {
                if (!held.containsKey(lease.id())) {
                    continue; // already returned with an earlier task of its ordered batch
                }
                timedOut++;
                unhold(lease.id());
                if (takeBackCrashed(lease.task().reclaimed(Reasons.processingTimedOut(timeout),
                        ReclaimCause.PROCESSING_TIMED_OUT), now)) {
                    buried++;
                } else {
                    returned++;
                }
                if (lease.partition().isOrdered()) {
                    for (Lease later : heldInPartition(lease.consumer(), lease.partition())) {
                        if (later.task().orderingKey().compareTo(lease.task().orderingKey()) > 0) {
                            unhold(later.id());
                            returnUnprocessed(later);
                            returned++;
                        }
                    }
                }
                releaseLockIfDone(lease.consumer(), lease.partition());
            }
        }
        notifyAll(); // returned tasks, and locks released even when their tasks died
        return new ReclaimReport(deadConsumers, returned, buried, timedOut);
    }

    /** A task whose processing never finished: back in place with the attempt counted, or dead if out of attempts. */
    private boolean takeBackCrashed(Task reclaimed, long now) {
        if (reclaimed.attempts() >= settings.maxAttempts()) {
            bury(reclaimed, now);
            return true;
        }
        putWaiting(reclaimed);
        return false;
    }

    // ---------------------------------------------------------------- cancel, get

    @Override
    public synchronized Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        ensureOpen();
        List<TaskId> checked = PublishRules.ids("ids", ids);
        Map<TaskId, CancelOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            if (outcomes.containsKey(id)) {
                continue;
            }
            Task task = waiting.get(id);
            if (task != null) {
                removeWaiting(task);
                outcomes.put(id, CancelOutcome.CANCELLED);
            } else if (dead.remove(id) != null) {
                outcomes.put(id, CancelOutcome.CANCELLED);
            } else if (held.containsKey(id)) {
                outcomes.put(id, CancelOutcome.IN_FLIGHT);
            } else {
                outcomes.put(id, CancelOutcome.UNKNOWN);
            }
        }
        notifyAll(); // a cancelled ordered head may uncover a ready task
        return outcomes;
    }

    @Override
    public synchronized Optional<TaskSnapshot> get(TaskId id) {
        ensureOpen();
        Validate.notNull("id", id);
        long now = clock.millis();
        Task task = waiting.get(id);
        if (task != null) {
            TaskState state = task.isReadyAt(now) ? TaskState.PENDING : TaskState.DELAYED;
            return Optional.of(new TaskSnapshot(task, state, Optional.empty()));
        }
        Lease lease = held.get(id);
        if (lease != null) {
            return Optional.of(new TaskSnapshot(lease.task(), TaskState.IN_FLIGHT, Optional.of(lease.consumer())));
        }
        DeadLetter letter = dead.get(id);
        if (letter != null) {
            return Optional.of(new TaskSnapshot(letter.task(), TaskState.DEAD, Optional.empty()));
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- dead letters

    @Override
    public synchronized DeadLetterPage deadLetters(int offset, int limit) {
        ensureOpen();
        new DeadLetterPageRequest(offset, limit);
        List<DeadLetter> page = dead.values().stream().skip(offset).limit(limit).toList();
        return new DeadLetterPage(page, dead.size(), offset);
    }

    @Override
    public synchronized Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        ensureOpen();
        List<TaskId> checked = PublishRules.ids("ids", ids);
        long now = clock.millis();
        Map<TaskId, RedriveOutcome> outcomes = new LinkedHashMap<>();
        for (TaskId id : checked) {
            DeadLetter letter = dead.remove(id);
            if (letter == null) {
                outcomes.putIfAbsent(id, RedriveOutcome.UNKNOWN);
                continue;
            }
            putWaiting(letter.task().redrivenAt(now));
            outcomes.put(id, RedriveOutcome.REDRIVEN);
        }
        notifyAll();
        return outcomes;
    }

    @Override
    public synchronized long redriveAll() {
        ensureOpen();
        return redrive(List.copyOf(dead.keySet())).size();
    }

    @Override
    public synchronized long purgeDeadLetters(Collection<TaskId> ids) {
        ensureOpen();
        List<TaskId> checked = PublishRules.ids("ids", ids);
        return checked.stream().distinct().filter(id -> dead.remove(id) != null).count();
    }

    @Override
    public synchronized long purgeAllDeadLetters() {
        ensureOpen();
        long count = dead.size();
        dead.clear();
        return count;
    }

    // ---------------------------------------------------------------- stats, pause, settings

    @Override
    public synchronized QueueStats stats() {
        ensureOpen();
        long now = clock.millis();
        long ready = waitingByReadyTime.readyCount(now);
        long oldestReadyAt = waitingByReadyTime.oldestReadyAt(now).orElse(now);
        long blocked = new ArrayList<>(blockedUntil.keySet()).stream()
                .filter(partition -> isBlocked(partition, now)).count();
        long live = consumers.values().stream().filter(expiresAt -> expiresAt > now).count();
        return new QueueStats(ready, waiting.size() - ready, held.size(), dead.size(), partitions.size(),
                locks.size(), blocked, live, now - oldestReadyAt, publishedTotal, ackedTotal, deadLetteredTotal,
                paused);
    }

    @Override
    public synchronized QueueInspection inspect(int limit) {
        ensureOpen();
        QueueInspection.checkedLimit(limit);
        long now = clock.millis();
        List<PartitionBacklog> backlog = partitions.values().stream()
                .map(state -> new PartitionBacklog(state.partition, state.waiting.size(),
                        state.waiting.stream().filter(task -> task.isReadyAt(now)).count()))
                .sorted(Comparator.comparingLong(PartitionBacklog::waiting).reversed()
                        .thenComparing(backlogged -> backlogged.partition().code()))
                .toList();
        List<PartitionLock> lockList = locks.entrySet().stream()
                .map(lock -> new PartitionLock(lock.getKey(), lock.getValue(),
                        Instant.ofEpochMilli(lockedAt.get(lock.getKey())),
                        heldInPartition(lock.getValue(), lock.getKey()).size()))
                .sorted(Comparator.comparing(PartitionLock::since)
                        .thenComparing(lock -> lock.partition().code()))
                .toList();
        List<PartitionBlock> blocks = blockedUntil.entrySet().stream()
                .filter(block -> block.getValue() > now)
                .map(block -> new PartitionBlock(block.getKey(), Instant.ofEpochMilli(block.getValue())))
                .sorted(Comparator.comparing(PartitionBlock::until)
                        .thenComparing(block -> block.partition().code()))
                .toList();
        Map<ConsumerId, Long> inFlightByConsumer = new HashMap<>();
        held.values().forEach(lease -> inFlightByConsumer.merge(lease.consumer(), 1L, Long::sum));
        List<ConsumerPresence> presences = consumers.entrySet().stream()
                .map(consumer -> new ConsumerPresence(consumer.getKey(),
                        Instant.ofEpochMilli(lastHeartbeats.get(consumer.getKey())),
                        Instant.ofEpochMilli(consumer.getValue()), consumer.getValue() > now,
                        inFlightByConsumer.getOrDefault(consumer.getKey(), 0L)))
                .sorted(Comparator.comparing(ConsumerPresence::lastHeartbeat).reversed()
                        .thenComparing(presence -> presence.consumer().value()))
                .toList();
        return new QueueInspection(Instant.ofEpochMilli(now),
                first(backlog, limit), backlog.size(), first(lockList, limit), lockList.size(),
                first(blocks, limit), blocks.size(), first(presences, limit), presences.size());
    }

    private static <T> List<T> first(List<T> all, int limit) {
        return all.size() <= limit ? all : all.subList(0, limit);
    }

    @Override
    public synchronized void pause() {
        ensureOpen();
        paused = true;
    }

    @Override
    public synchronized void resume() {
        ensureOpen();
        paused = false;
        notifyAll();
    }

    @Override
    public synchronized QueueSettings settings() {
        ensureOpen();
        return settings;
    }

    @Override
    public synchronized void configure(QueueSettings newSettings) {
        ensureOpen();
        settings = Validate.notNull("settings", newSettings);
        configured = true;
    }

    // ---------------------------------------------------------------- bookkeeping

    private void putWaiting(Task task) {
        PartitionState state = partitions.computeIfAbsent(task.partition(),
                partition -> new PartitionState(partition, ++lastTurn));
        state.add(task);
        waiting.put(task.id(), task);
        waitingByReadyTime.add(task);
        touched.add(state);
    }

    private void removeWaiting(Task task) {
        PartitionState state = partitions.get(task.partition());
        state.remove(task);
        waiting.remove(task.id());
        waitingByReadyTime.remove(task);
        touched.add(state);
        dropIfEmpty(state);
    }

    private void dropIfEmpty(PartitionState state) {
        if (state.isEmpty()) {
            partitions.remove(state.partition);
            unschedule(state);
            touched.remove(state);
        }
    }

    /** A task, its last error set to why it dies, into the dead letters. */
    private void bury(Task task, long now) {
        dead.put(task.id(), new DeadLetter(task, task.lastError(), now));
        deadLetteredTotal++;
    }

    private Lease heldBy(ConsumerId consumer, TaskId id) {
        Lease lease = held.get(id);
        return lease != null && lease.consumer().equals(consumer) ? lease : null;
    }

    private void hold(Lease lease) {
        held.put(lease.id(), lease);
        heldByConsumer.computeIfAbsent(lease.consumer(), consumer -> new HashMap<>())
                .computeIfAbsent(lease.partition(), partition -> new TreeSet<>(LEASE_BY_KEY))
                .add(lease);
    }

    private void unhold(TaskId id) {
        Lease lease = held.remove(id);
        if (lease == null) {
            return;
        }
        Map<Partition, TreeSet<Lease>> byPartition = heldByConsumer.get(lease.consumer());
        TreeSet<Lease> inPartition = byPartition.get(lease.partition());
        inPartition.remove(lease);
        if (inPartition.isEmpty()) {
            byPartition.remove(lease.partition());
            if (byPartition.isEmpty()) {
                heldByConsumer.remove(lease.consumer());
            }
        }
    }

    /** Everything a consumer holds, in seq order. */
    private List<Lease> heldBy(ConsumerId consumer) {
        return heldByConsumer.getOrDefault(consumer, Map.of()).values().stream()
                .flatMap(Collection::stream)
                .sorted(Comparator.comparing((Lease lease) -> lease.task().seq()))
                .toList();
    }

    /** What a consumer holds of one partition, in key order. */
    private List<Lease> heldInPartition(ConsumerId consumer, Partition partition) {
        TreeSet<Lease> inPartition = heldByConsumer.getOrDefault(consumer, Map.of()).get(partition);
        return inPartition == null ? List.of() : List.copyOf(inPartition);
    }

    private boolean holdsAnyOf(ConsumerId consumer, Partition partition) {
        return heldByConsumer.getOrDefault(consumer, Map.of()).containsKey(partition);
    }

    private void releaseLockIfDone(ConsumerId consumer, Partition partition) {
        if (consumer.equals(locks.get(partition)) && !holdsAnyOf(consumer, partition)) {
            locks.remove(partition);
            lockedAt.remove(partition);
            touch(partition);
        }
    }

    /** Whether anything of the queue is kept: tasks, dead letters, counters, consumers, blocks, settings. */
    synchronized boolean holdsData() {
        return lastSeq > 0 || !dead.isEmpty() || !held.isEmpty() || !consumers.isEmpty() || !blockedUntil.isEmpty()
                || !recentlyAcked.isEmpty() || paused || configured;
    }
}
