package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.OrderingKey;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.Completion;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.LeaseStatus;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A plain, slow store written straight from docs/semantics.md, so this module's tests need no
 * backend: linear scans over one map of entries. Not thread-safe; tests only.
 */
final class SimpleTaskStore implements TaskStore {

    /** Deliberate deviations, to prove the checker and the differential notice them. */
    enum Quirk {
        /** Delivers from an ordered partition while another consumer holds it. */
        IGNORES_ORDERED_LOCK,
        /** Delivers tasks before their readyAt. */
        IGNORES_DELAYS,
        /** Picks among partitions by turn only. */
        IGNORES_PRIORITY,
        /** Among equal priorities serves the partition served most recently. */
        SERVES_MOST_RECENT_FIRST,
        /** A retry moves an ordered task behind later ones (as in a regular partition) while reporting its dueAt unchanged. */
        RETRY_MOVES_ORDERED_TASK,
        /** Rejecting a task of a held ordered batch returns only the named tasks (no rule 5). */
        REJECT_RETURNS_ONLY_NAMED,
        /** Delivers from a partition at its concurrency cap and past the queue's. */
        IGNORES_CAPS,
        /** Delivers from a partition out of tokens. */
        IGNORES_RATE_LIMITS,
        /** The caps on the dead letters delete the newest instead of the oldest. */
        DROPS_THE_NEWEST_DEAD_LETTERS,
        /** Partitions that come into existence in one step get their turns in reverse: allowed, but different. */
        REVERSES_NEW_TURNS
    }

    private static final class Entry {
        Task task;
        ConsumerId holder;
        long leasedAt;
        boolean dead;
        String reason;
        long deadAt;
        long deathOrder;
        boolean cancelRequested;
        long extendedUntil = -1;
        Progress progress;
        long progressAt;

        Entry(Task task) {
            this.task = task;
        }

        void leaveHolder() {
            holder = null;
            cancelRequested = false;
            extendedUntil = -1;
            progress = null;
        }

        /** When a live holder loses it, or -1: an extension, else its own timeout or the queue's after the lease. */
        long deadline(long queueTimeoutMillis) {
            if (extendedUntil >= 0) {
                return extendedUntil;
            }
            long timeout = task.timeout().isZero() ? queueTimeoutMillis : task.timeout().toMillis();
            return timeout > 0 ? leasedAt + timeout : -1;
        }

        boolean waiting() {
            return holder == null && !dead;
        }
    }

    private final Clock clock;
    private final QueueName queue = QueueName.of("sim");
    private QueueSettings settings = QueueSettings.DEFAULTS;
    private final Map<TaskId, Entry> entries = new LinkedHashMap<>();
    private final Map<Partition, Long> turns = new HashMap<>();
    private final Map<ConsumerId, Long> consumers = new HashMap<>();
    private final Map<Partition, Long> blocks = new HashMap<>();
    private final Map<TaskId, Long> ackedAt = new HashMap<>();
    /** Acked tasks kept as completed while the queue keeps results, with when, until when and their result. */
    private final Map<TaskId, Kept> completed = new LinkedHashMap<>();

    private record Kept(Task task, long at, long until, byte[] result) {
    }
    private final Map<TaskId, Long> movedDue = new HashMap<>();
    private boolean paused;
    private long seq;
    private long turn;
    private long deaths;
    private long published;
    private long acked;
    private long deadLettered;
    private long deadLettersDropped;

    private final Set<Quirk> quirks;
    private final TokenBuckets buckets = new TokenBuckets();
    private final SimpleSchedules schedules;

    SimpleTaskStore(Clock clock, Quirk... quirks) {
        this(clock, null, quirks);
    }

    /** A store whose schedules break a rule ({@code scheduleFault}, or none with null). */
    SimpleTaskStore(Clock clock, SimpleSchedules.Fault scheduleFault, Quirk... quirks) {
        this.clock = clock;
        this.quirks = quirks.length == 0 ? Set.of() : EnumSet.copyOf(List.of(quirks));
        this.schedules = new SimpleSchedules(scheduleFault);
    }

    @Override
    public QueueName queue() {
        return queue;
    }

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        PublishRules.validate(tasks, settings);
        long now = clock.millis();
        List<PublishReceipt> receipts = new ArrayList<>();
        for (NewTask request : tasks) {
            Long acked = ackedAt.get(request.id());
            boolean remembered = acked != null && settings.hasDedupWindow()
                    && now - acked < settings.dedupWindow().toMillis();
            if (entries.containsKey(request.id()) || completed.containsKey(request.id()) || remembered) {
                receipts.add(new PublishReceipt(request.id(), PublishOutcome.DUPLICATE));
                continue;
            }
            entries.put(request.id(), new Entry(Task.published(request, ++seq, now)));
            published++;
            if (!quirks.contains(Quirk.REVERSES_NEW_TURNS)) {
                giveTurns();
            }
            receipts.add(new PublishReceipt(request.id(), PublishOutcome.CREATED));
        }
        giveTurns();
        return receipts;
    }

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        long now = clock.millis();
        consumers.merge(consumer, now + settings.heartbeatTtl().toMillis(), Math::max);
        List<Lease> leases = new ArrayList<>();
        int room = max;
        if (settings.queueConcurrency() > 0 && !quirks.contains(Quirk.IGNORES_CAPS)) {
            room = (int) Math.max(0, Math.min(max, settings.queueConcurrency()
                    - entries.values().stream().filter(entry -> entry.holder != null).count()));
        }
        room = (int) Math.min(room, buckets.queueTokens(settings, now));
        while (!paused && leases.size() < room) {
            Partition best = null;
            Task bestHead = null;
            for (Partition partition : turns.keySet()) {
                Task head = head(partition, now);
                if (head == null || isBlocked(partition, now)
                        || (partition.isOrdered() && isLocked(partition) && !quirks.contains(Quirk.IGNORES_ORDERED_LOCK))
                        || atCap(partition) || (buckets.partitionTokens(settings, partition, now) < 1
                        && !quirks.contains(Quirk.IGNORES_RATE_LIMITS))) {
                    continue;
                }
                if (quirks.contains(Quirk.IGNORES_PRIORITY)) {
                    if (best == null || turns.get(partition) < turns.get(best)) {
                        best = partition;
                        bestHead = head;
                    }
                    continue;
                }
                boolean earlier = quirks.contains(Quirk.SERVES_MOST_RECENT_FIRST)
                        ? best != null && turns.get(partition) > turns.get(best)
                        : best != null && turns.get(partition) < turns.get(best);
                if (best == null || head.priority().value() > bestHead.priority().value()
                        || (head.priority().value() == bestHead.priority().value() && earlier)) {
                    best = partition;
                    bestHead = head;
                }
            }
            if (best == null) {
                break;
            }
            int before = leases.size();
            if (best.isOrdered()) {
                long tokens = buckets.partitionTokens(settings, best, now);
                for (Entry entry : waitingIn(best)) {
                    if (leases.size() == room || (leases.size() - before == tokens
                            && !quirks.contains(Quirk.IGNORES_RATE_LIMITS)) || !ready(entry.task, now)) {
                        break;
                    }
                    leases.add(take(entry, consumer, now));
                }
            } else {
                leases.add(take(entries.get(bestHead.id()), consumer, now));
            }
            buckets.took(settings, best, leases.size() - before, now);
            turns.put(best, ++turn);
            giveTurns();
        }
        return leases;
    }

    private Lease take(Entry entry, ConsumerId consumer, long now) {
        entry.task = entry.task.withAttempts(entry.task.attempts() + 1);
        entry.holder = consumer;
        entry.leasedAt = now;
        return new Lease(entry.task, consumer, now);
    }

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        long now = clock.millis();
        Map<TaskId, AckOutcome> result = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry != null && consumer.equals(entry.holder)) {
                entries.remove(id);
                ackedAt.put(id, now);
                acked++;
                if (settings.keepsResults()) {
                    completed.put(id, new Kept(entry.task, now, now + settings.resultRetention().toMillis(), new byte[0]));
                }
                result.put(id, AckOutcome.ACKED);
            } else {
                result.put(id, AckOutcome.LEASE_LOST);
            }
        }
        giveTurns();
        return result;
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        long now = clock.millis();
        Map<TaskId, RejectOutcome> result = new LinkedHashMap<>();
        List<Entry> named = new ArrayList<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry != null && consumer.equals(entry.holder)) {
                named.add(entry);
                result.put(id, entry.cancelRequested ? RejectOutcome.CANCELLED
                        : entry.task.attempts() >= settings.maxAttempts() ? RejectOutcome.DEAD_LETTERED
                        : RejectOutcome.RETURNED);
            } else {
                result.put(id, RejectOutcome.LEASE_LOST);
            }
        }
        List<Entry> batch = quirks.contains(Quirk.REJECT_RETURNS_ONLY_NAMED) ? List.of() : restOfBatch(named, consumer);
        named.sort(Comparator.comparingLong(entry -> entry.task.seq())); // given back (and dying) in seq order
        for (Entry entry : named) {
            if (entry.cancelRequested) {
                entries.remove(entry.task.id());
                continue;
            }
            if (rejection.blocksPartition()) {
                blocks.merge(entry.task.partition(), now + rejection.blockPartitionFor().toMillis(), Math::max);
            }
            if (result.get(entry.task.id()) == RejectOutcome.DEAD_LETTERED) {
                die(entry, rejection.reason(), now);
            } else {
                entry.task = entry.task.retriedAt(now + rejection.delay().toMillis(), rejection.reason());
                if (quirks.contains(Quirk.RETRY_MOVES_ORDERED_TASK) && entry.task.partition().isOrdered()) {
                    movedDue.put(entry.task.id(), entry.task.readyAt());
                }
                entry.leaveHolder();
            }
        }
        for (Entry entry : batch) {
            result.put(entry.task.id(), returnUnprocessed(entry) ? RejectOutcome.RETURNED_WITH_BATCH
                    : RejectOutcome.CANCELLED);
        }
        giveTurns();
        return result;
    }

    /** A task back unprocessed, attempt not counted; false when it was deleted instead (cancellation asked). */
    private boolean returnUnprocessed(Entry entry) {
        if (entry.cancelRequested) {
            entries.remove(entry.task.id());
            return false;
        }
        entry.task = entry.task.withAttempts(entry.task.attempts() - 1);
        entry.leaveHolder();
        return true;
    }

    /** Rule 5: held tasks of the same ordered partitions after the lowest named one. */
    private List<Entry> restOfBatch(List<Entry> named, ConsumerId consumer) {
        List<Entry> batch = new ArrayList<>();
        for (Entry entry : entries.values()) {
            if (!consumer.equals(entry.holder) || named.contains(entry) || !entry.task.partition().isOrdered()) {
                continue;
            }
            for (Entry first : named) {
                if (first.task.partition().equals(entry.task.partition())
                        && entry.task.orderingKey().compareTo(first.task.orderingKey()) > 0) {
                    batch.add(entry);
                    break;
                }
            }
        }
        return batch;
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        long now = clock.millis();
        Map<TaskId, FailOutcome> result = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry != null && consumer.equals(entry.holder) && entry.cancelRequested) {
                entries.remove(id);
                result.put(id, FailOutcome.CANCELLED);
            } else if (entry != null && consumer.equals(entry.holder)) {
                die(entry, reason, now);
                result.put(id, FailOutcome.DEAD_LETTERED);
            } else {
                result.put(id, FailOutcome.LEASE_LOST);
            }
        }
        giveTurns();
        return result;
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        Map<TaskId, ReleaseOutcome> result = new LinkedHashMap<>();
        List<Entry> named = new ArrayList<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry != null && consumer.equals(entry.holder)) {
                named.add(entry);
                result.put(id, ReleaseOutcome.RELEASED);
            } else {
                result.put(id, ReleaseOutcome.LEASE_LOST);
            }
        }
        List<Entry> all = new ArrayList<>(named);
        all.addAll(restOfBatch(named, consumer));
        for (Entry entry : all) {
            result.put(entry.task.id(), returnUnprocessed(entry) ? ReleaseOutcome.RELEASED : ReleaseOutcome.CANCELLED);
        }
        giveTurns();
        return result;
    }

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        blocks.put(partition, clock.millis() + duration.toMillis());
    }

    @Override
    public void unblockPartition(Partition partition) {
        blocks.remove(partition);
    }

    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        consumers.put(consumer, clock.millis() + ttl.toMillis());
        progress.forEach((id, report) -> {
            Entry entry = entries.get(id);
            if (entry != null && consumer.equals(entry.holder)) {
                entry.progress = report;
                entry.progressAt = clock.millis();
            }
        });
        Set<TaskId> cancelRequested = new HashSet<>();
        entries.forEach((id, entry) -> {
            if (consumer.equals(entry.holder) && entry.cancelRequested) {
                cancelRequested.add(id);
            }
        });
        return cancelRequested;
    }

    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        Map<TaskId, ExtendOutcome> result = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry == null || !consumer.equals(entry.holder)) {
                result.put(id, ExtendOutcome.LEASE_LOST);
            } else if (entry.cancelRequested) {
                result.put(id, ExtendOutcome.CANCEL_REQUESTED);
            } else {
                entry.extendedUntil = clock.millis() + extension.toMillis();
                result.put(id, ExtendOutcome.EXTENDED);
            }
        }
        return result;
    }

    @Override
    public ReclaimReport reclaim() {
        long now = clock.millis();
        Set<ConsumerId> dead = new TreeSet<>(Comparator.comparing(ConsumerId::value));
        consumers.forEach((consumer, expiresAt) -> {
            if (expiresAt <= now) {
                dead.add(consumer);
            }
        });
        int returned = 0;
        int deadLetters = 0;
        int timedOut = 0;
        int cancelled = 0;
        long timeout = settings.processingTimeout().toMillis();
        List<Entry> lateOrdered = new ArrayList<>();
        // dead consumers' tasks by holder and seq, then the overdue ones in key order: the order they die in
        List<Entry> held = new ArrayList<>(entries.values());
        held.removeIf(entry -> entry.holder == null);
        held.sort(Comparator.comparing((Entry entry) -> !dead.contains(entry.holder))
                .thenComparing(entry -> dead.contains(entry.holder) ? entry.holder.value() : "")
                .thenComparing(entry -> dead.contains(entry.holder) ? new OrderingKey(0, 0, entry.task.seq())
                        : entry.task.orderingKey()));
        List<Entry> lateRegular = new ArrayList<>();
        for (Entry entry : held) {
            boolean consumerDead = dead.contains(entry.holder);
            long deadline = entry.deadline(timeout);
            boolean late = !consumerDead && deadline >= 0 && deadline <= now;
            if (!consumerDead && !late) {
                continue;
            }
            if (late && entry.task.partition().isOrdered()) {
                lateOrdered.add(entry);
                continue;
            }
            if (late) {
                lateRegular.add(entry);
                continue;
            }
            if (entry.cancelRequested) {
                entries.remove(entry.task.id());
                cancelled++;
            } else if (entry.task.attempts() >= settings.maxAttempts()) {
                die(entry, "consumer " + entry.holder + " stopped heartbeating", now);
                deadLetters++;
            } else {
                entry.leaveHolder();
                returned++;
            }
        }
        // In an ordered batch the first late task timed out, the rest return with it.
        List<Entry> firsts = new ArrayList<>(lateOrdered);
        firsts.removeIf(entry -> lateOrdered.stream().anyMatch(other -> other.holder.equals(entry.holder)
                && other.task.partition().equals(entry.task.partition())
                && other.task.orderingKey().compareTo(entry.task.orderingKey()) < 0));
        firsts.addAll(lateRegular);
        firsts.sort(Comparator.comparing(entry -> entry.task.orderingKey()));
        for (Entry first : firsts) {
            List<Entry> rest = first.task.partition().isOrdered() ? restOfBatch(List.of(first), first.holder) : List.of();
            if (first.cancelRequested) {
                entries.remove(first.task.id());
                cancelled++;
            } else if (first.task.attempts() >= settings.maxAttempts()) {
                timedOut++;
                die(first, "processing timed out after " + (first.deadline(timeout) - first.leasedAt) + " ms", now);
                deadLetters++;
            } else {
                timedOut++;
                first.leaveHolder();
                returned++;
            }
            for (Entry entry : rest) {
                if (returnUnprocessed(entry)) {
                    returned++;
                } else {
                    cancelled++;
                }
            }
        }
        consumers.keySet().removeAll(dead);
        giveTurns();
        return new ReclaimReport(List.copyOf(dead), returned, deadLetters, timedOut, cancelled);
    }

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        Map<TaskId, CancelOutcome> result = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry == null) {
                result.put(id, completed.remove(id) != null ? CancelOutcome.CANCELLED : CancelOutcome.UNKNOWN);
            } else if (entry.holder != null) {
                entry.cancelRequested = true;
                result.put(id, CancelOutcome.CANCEL_REQUESTED);
            } else {
                entries.remove(id);
                result.put(id, CancelOutcome.CANCELLED);
            }
        }
        giveTurns();
        return result;
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        Entry entry = entries.get(id);
        if (entry == null) {
            return Optional.ofNullable(completed.get(id)).map(kept -> TaskSnapshot.completed(kept.task(),
                    new Completion(Instant.ofEpochMilli(kept.at()), Instant.ofEpochMilli(kept.until()), kept.result())));
        }
        TaskState state = entry.dead ? TaskState.DEAD : entry.holder != null ? TaskState.IN_FLIGHT
                : entry.task.isReadyAt(clock.millis()) ? TaskState.PENDING : TaskState.DELAYED;
        if (entry.holder == null) {
            return Optional.of(TaskSnapshot.unheld(entry.task, state));
        }
        long deadline = entry.deadline(settings.processingTimeout().toMillis());
        return Optional.of(TaskSnapshot.held(entry.task, entry.holder, new LeaseStatus(
                Instant.ofEpochMilli(entry.leasedAt),
                deadline < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline)), entry.cancelRequested,
                Optional.ofNullable(entry.progress),
                Optional.ofNullable(entry.progress).map(report -> Instant.ofEpochMilli(entry.progressAt)))));
    }

    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        List<Entry> dead = entries.values().stream().filter(entry -> entry.dead)
                .sorted(Comparator.comparingLong(entry -> entry.deathOrder)).toList();
        List<DeadLetter> page = dead.stream().skip(offset).limit(limit)
                .map(entry -> new DeadLetter(entry.task, entry.reason, entry.deadAt)).toList();
        return new DeadLetterPage(page, dead.size(), offset);
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        long now = clock.millis();
        Map<TaskId, RedriveOutcome> result = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Entry entry = entries.get(id);
            if (entry != null && entry.dead) {
                entry.dead = false;
                movedDue.remove(id);
                entry.task = entry.task.redrivenAt(now);
                result.put(id, RedriveOutcome.REDRIVEN);
            } else {
                result.put(id, RedriveOutcome.UNKNOWN);
            }
        }
        giveTurns();
        return result;
    }

    @Override
    public long redriveAll() {
        List<TaskId> dead = entries.values().stream().filter(entry -> entry.dead).map(entry -> entry.task.id()).toList();
        redrive(dead);
        return dead.size();
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        long count = 0;
        for (TaskId id : new LinkedHashSet<>(ids)) {
            Entry entry = entries.get(id);
            if (entry != null && entry.dead) {
                entries.remove(id);
                count++;
            }
        }
        return count;
    }

    @Override
    public long purgeAllDeadLetters() {
        List<TaskId> dead = entries.values().stream().filter(entry -> entry.dead).map(entry -> entry.task.id()).toList();
        return purgeDeadLetters(dead);
    }

    @Override
    public QueueStats stats() {
        long now = clock.millis();
        long ready = 0;
        long delayed = 0;
        long inFlight = 0;
        long dead = 0;
        long oldest = Long.MAX_VALUE;
        Set<Partition> active = new LinkedHashSet<>();
        Set<Partition> locked = new LinkedHashSet<>();
        for (Entry entry : entries.values()) {
            if (entry.dead) {
                dead++;
            } else if (entry.holder != null) {
                inFlight++;
                if (entry.task.partition().isOrdered()) {
                    locked.add(entry.task.partition());
                }
            } else {
                active.add(entry.task.partition());
                if (entry.task.isReadyAt(now)) {
                    ready++;
                    oldest = Math.min(oldest, entry.task.readyAt());
                } else {
                    delayed++;
                }
            }
        }
        long blocked = blocks.values().stream().filter(until -> until > now).count();
        long live = consumers.values().stream().filter(expiresAt -> expiresAt > now).count();
        long capped = active.stream().filter(this::heldAtCap).count(); // the count as it is, whatever the quirks
        long throttled = active.stream().filter(partition -> buckets.partitionTokens(settings, partition, now) < 1).count();
        return new QueueStats(ready, delayed, inFlight, dead, active.size(), locked.size(), blocked, capped, throttled,
                live, ready == 0 ? 0 : now - oldest, published, acked, deadLettered, deadLettersDropped, paused,
                completed.size());
    }

    /** Not needed by the simulation, which compares operations' outcomes and stats. */
    @Override
    public QueueInspection inspect(int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not inspect");
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public QueueSettings settings() {
        return settings;
    }

    @Override
    public void configure(QueueSettings settings) {
        buckets.configured(this.settings, settings);
        this.settings = settings;
    }

    private void die(Entry entry, String reason, long now) {
        entry.dead = true;
        entry.leaveHolder();
        entry.reason = reason;
        entry.deadAt = now;
        entry.deathOrder = ++deaths;
        deadLettered++;
        dropPastCaps(QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH, now);
    }

    /** The oldest dead letters while the caps say so, at most {@code most}. */
    private long dropPastCaps(long most, long now) {
        List<Entry> dead = entries.values().stream().filter(entry -> entry.dead)
                .sorted(Comparator.comparingLong(entry -> entry.deathOrder)).toList();
        long dropped = 0;
        while (dropped < most && dropped < dead.size()
                && settings.dropsOldestDeadLetter(dead.size() - dropped, dead.get((int) dropped).deadAt, now)) {
            int victim = quirks.contains(Quirk.DROPS_THE_NEWEST_DEAD_LETTERS) ? dead.size() - 1 - (int) dropped : (int) dropped;
            entries.remove(dead.get(victim).task.id());
            dropped++;
        }
        deadLettersDropped += dropped;
        return dropped;
    }

    /** The simulation's steps keep no results (its settings never set a retention): an ack. */
    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        Map<TaskId, AckOutcome> acks = ack(consumer, List.copyOf(results.keySet()));
        acks.forEach((id, outcome) -> completed.computeIfPresent(id, (same, kept) -> outcome == AckOutcome.ACKED
                ? new Kept(kept.task(), kept.at(), kept.until(), results.get(id).clone()) : kept));
        return acks;
    }

    @Override
    public long expireCompleted() {
        long now = clock.millis();
        int before = completed.size();
        completed.values().removeIf(kept -> kept.until() <= now);
        return before - completed.size();
    }

    @Override
    public long trimDeadLetters() {
        return dropPastCaps(Long.MAX_VALUE, clock.millis());
    }

    private List<Entry> waitingIn(Partition partition) {
        return entries.values().stream()
                .filter(entry -> entry.waiting() && entry.task.partition().equals(partition))
                .sorted(Comparator.comparing(entry -> new OrderingKey(entry.task.priority().value(),
                        movedDue.getOrDefault(entry.task.id(), entry.task.dueAt()), entry.task.seq())))
                .toList();
    }

    private Task head(Partition partition, long now) {
        for (Entry entry : waitingIn(partition)) {
            if (ready(entry.task, now)) {
                return entry.task;
            }
            if (partition.isOrdered()) {
                return null;
            }
        }
        return null;
    }

    private boolean ready(Task task, long now) {
        return task.isReadyAt(now) || quirks.contains(Quirk.IGNORES_DELAYS);
    }

    private boolean isBlocked(Partition partition, long now) {
        Long until = blocks.get(partition);
        return until != null && until > now;
    }

    private boolean atCap(Partition partition) {
        return !quirks.contains(Quirk.IGNORES_CAPS) && heldAtCap(partition);
    }

    private boolean heldAtCap(Partition partition) {
        int cap = settings.concurrencyOf(partition);
        return cap > 0 && entries.values().stream().filter(entry -> entry.holder != null
                && entry.task.partition().equals(partition)).count() >= cap;
    }

    private boolean isLocked(Partition partition) {
        return entries.values().stream().anyMatch(entry -> entry.holder != null
                && entry.task.partition().equals(partition));
    }

    /** A partition gets a turn when it comes into existence and loses it when it has no waiting task. */
    private void giveTurns() {
        Set<Partition> existing = new LinkedHashSet<>();
        for (Entry entry : entries.values()) {
            if (entry.waiting()) {
                existing.add(entry.task.partition());
            }
        }
        turns.keySet().retainAll(existing);
        List<Partition> fresh = new ArrayList<>(existing);
        if (quirks.contains(Quirk.REVERSES_NEW_TURNS)) {
            Collections.reverse(fresh);
        }
        for (Partition partition : fresh) {
            turns.computeIfAbsent(partition, p -> ++turn);
        }
    }

    @Override
    public ScheduleFiring fireDueSchedules() {
        return schedules.fire(clock.millis(), this::publish);
    }

    @Override
    public boolean putSchedule(Schedule schedule) {
        return schedules.put(schedule, clock.millis());
    }

    @Override
    public boolean removeSchedule(String id) {
        return schedules.remove(id);
    }

    @Override
    public List<ScheduleEntry> schedules() {
        return schedules.list();
    }

    // ---------------------------------------------------------------- consumer groups: a queue without any

    /** The simulation runs one queue without consumer groups (docs/groups.md): this store never has one. */
    @Override
    public boolean createGroup(GroupName group) {
        throw new UnsupportedOperationException("SimpleTaskStore models a queue without consumer groups");
    }

    @Override
    public boolean createGroup(GroupName group, GroupName backlogOf) {
        throw new UnsupportedOperationException("SimpleTaskStore models a queue without consumer groups");
    }

    @Override
    public List<GroupName> groups() {
        return List.of();
    }

    @Override
    public boolean deleteGroup(GroupName group) {
        return false;
    }

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not list tasks");
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not list tasks");
    }

    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not list tasks");
    }

    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not list tasks");
    }

    @Override
    public TaskEventPage events(String cursor, int limit) {
        // it keeps no log: the checker's own tests run on it, and the simulation's reads of a log check only what
        // a log holds (numbered, within its length), which an empty one passes
        return new TaskEventPage(List.of(), cursor, false);
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        throw new UnsupportedOperationException("SimpleTaskStore does not list tasks");
    }
}
