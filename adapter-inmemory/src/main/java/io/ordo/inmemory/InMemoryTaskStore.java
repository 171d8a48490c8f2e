package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletionResults;
import io.ordo.ports.ConsumeRequest;
import io.ordo.ports.CursorPageRequest;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.DeadLetterPageRequest;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEventType;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskPageRequest;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The reference store: docs/semantics.md written as plain Java over plain collections. Every
 * operation holds the store's monitor, which makes it atomic like a Lua script on Redis; every
 * decision depends only on the calls and the clock, which makes runs reproducible. It keeps the cost
 * bounds docs/redis-design.md gives the Redis stores: the partitions a consume may serve are kept in
 * serving order as they change (as Redis's {@code ready}), with the times at which time alone changes
 * one (its {@code delayed}, {@code wake} and {@code blocked}), and tasks in flight are indexed by
 * consumer and partition, so no operation scans the partitions, the waiting tasks or the tasks in flight.
 * The waiting side and its schedule are {@link WaitingTasks}, the tasks in flight and the locks
 * {@link Holdings}; this class applies the operations' rules over both, with what a consume takes in
 * {@link InMemoryServing}, what becomes of a task leaving a consumer's hands in {@link TaskFates} and task
 * control in {@link InMemoryTaskControl}, all run under its monitor.
 *
 * <p>One store is one view of a queue: its own ({@code forQueue}) or a consumer group's (docs/groups.md).
 * What spans the views of a queue (publishing to them, the groups' administration, configuring every view,
 * the schedules) is in {@link QueueViews}, which takes its own monitor before any store's.
 */
final class InMemoryTaskStore implements TaskStore, QueueLevelCalls {
    /** How often a waiting consume looks at the clock again: a virtual clock moves without telling anyone. */
    private static final long WAIT_POLL_MILLIS = 5;

    private final QueueName queue;
    private final Clock clock;
    /** The queue's views, this one among them. */
    private final QueueViews views;
    /** The group this store is the state of; null for the queue's own view. */
    private final GroupName group;

    /** Tasks in flight and the locks of ordered partitions. */
    private final Holdings holdings = new Holdings(this::touch, this::freed, this::noteCancelled);
    /** Waiting tasks, partition blocks and the serving schedule. */
    private final WaitingTasks waiting = new WaitingTasks(this::isHeldBack, this::throttledUntil);
    /** The buckets of the queue's rate limits. */
    private final RateBuckets buckets = new RateBuckets();
    /** Dead letters in the order they died. */
    private final DeadLetters dead = new DeadLetters();
    /** Acked tasks kept with their results, while the view keeps results. */
    private final CompletedTasks completed = new CompletedTasks();
    /** Registered consumers, when each expires and when each was last heard from. */
    private final ConsumerRegistry consumers = new ConsumerRegistry();
    /** reclaim's taking back of dead consumers' and overdue tasks. */
    private final InMemoryReclaim reclaiming = new InMemoryReclaim(holdings, consumers);
    /** What became of the tasks, while the view keeps a log. */
    private final EventLog events = new EventLog();
    /** Ids of acked tasks still inside the dedup window, with when they may be used again. */
    private final Map<TaskId, Long> recentlyAcked = new HashMap<>();
    /** What becomes of a task that leaves a consumer's hands, and the log's note of it. */
    private final TaskFates fates;
    /** What a consume takes. */
    private final InMemoryServing serving;
    /** Task control: cancel, heartbeat, lease extension, get. */
    private final InMemoryTaskControl control;

    private QueueSettings settings;
    private boolean paused;
    /** Whether settings were ever stored (Redis keeps them in the queue's meta key from then on). */
    private boolean configured;
    private long publishedTotal;

    /** Set when the factory is closed; read under the monitor, like everything else. */
    private boolean closed;
    /** Set when this store's group is deleted: its state is gone, and every later call is refused. */
    private boolean deleted;

    /** The view of {@code group} (null: the queue's own), starting with {@code settings}. */
    InMemoryTaskStore(QueueName queue, Clock clock, QueueViews views, GroupName group, QueueSettings settings) {
        this.queue = queue;
        this.clock = clock;
        this.views = views;
        this.group = group;
        this.settings = settings;
        this.serving = new InMemoryServing(waiting, holdings, buckets, consumers, clock, () -> this.settings);
        this.fates = new TaskFates(holdings, waiting, dead, completed, events, recentlyAcked, clock, () -> this.settings);
        this.control = new InMemoryTaskControl(holdings, waiting, dead, completed, consumers, fates, clock,
                () -> this.settings);
    }

    @Override
    public QueueName queue() {
        return queue;
    }

    @Override
    public Optional<GroupName> group() {
        return Optional.ofNullable(group);
    }

    /** Closing the factory: every later call throws, and a consume waiting now returns with that. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Deleting the group: every later call is refused, and a consume waiting now returns with that. */
    synchronized void delete() {
        deleted = true;
        notifyAll();
    }

    /**
     * The ids this view remembers in its dedup window go on being remembered by {@code heir} until their
     * window ends (ids are the queue's: a deleted group's acked ids stay duplicates as on Redis, whose
     * queue keeps them); both monitors are held by the caller.
     */
    void handRememberedIdsTo(InMemoryTaskStore heir) {
        recentlyAcked.forEach((id, until) -> heir.recentlyAcked.merge(id, until, Math::max));
        recentlyAcked.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the store of queue " + queue + " was closed with its factory");
        }
        if (deleted) {
            throw QueueViews.noSuchGroup(queue, group);
        }
    }

    // ---------------------------------------------------------------- publish

    /** The queue's: to its groups, or to its own view while it has none ({@link QueueViews#publish}). */
    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        return views.publish(tasks);
    }

    /** Whether this view holds the id or remembers it in its dedup window; the caller holds the monitor. */
    boolean holds(TaskId id, long now) {
        Long until = recentlyAcked.get(id);
        if (until != null && until <= now) {
            recentlyAcked.remove(id);
            until = null;
        }
        return until != null || waiting.contains(id) || holdings.contains(id) || dead.contains(id)
                || completed.contains(id);
    }

    /**
     * A published task arrives in this view, numbered by the queue ({@link QueueViews}); the caller holds the
     * monitor and calls {@link #delivered} after.
     */
    void receive(NewTask request, long seq, long now) {
        waiting.put(Task.published(request, seq, now));
        publishedTotal++;
    }

    /** The tasks waiting in this view (not in flight, not dead); the caller holds the monitor. */
    List<Task> waitingTasks() {
        List<Task> tasks = new ArrayList<>(waiting.size());
        waiting.partitions().forEach(partition -> tasks.addAll(partition.waiting));
        return tasks;
    }

    /** A task of another group's backlog arrives in this one (QueueViews); the caller holds the monitor. */
    void receiveCopy(Task task) {
        waiting.put(task);
        publishedTotal++;
    }

    /** A publish's tasks are in: waiting consumes look again. */
    synchronized void delivered() {
        notifyAll();
    }

    // ---------------------------------------------------------------- consume (InMemoryServing)

    @Override
    public synchronized List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        ensureOpen();
        ConsumeRequest.taking(consumer, max, wait);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            ensureOpen(); // again after every wait: closing the factory ends a waiting consume
            List<Lease> taken = serving.takeDue(consumer, max, paused);
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

    /** A partition out of tokens: when its next one comes; else 0. */
    private long throttledUntil(Partition partition, long now) {
        return buckets.throttledUntil(settings.partitionRateLimit(), partition, now);
    }

    /** Not served whatever the time: an ordered partition locked, a capped one with as many tasks in flight as its cap. */
    private boolean isHeldBack(Partition partition) {
        return holdings.isLocked(partition) || holdings.atCap(partition, settings.concurrencyOf(partition));
    }

    /** A task in flight left: under a cap its partition may be served again. */
    private void freed(Partition partition) {
        if (settings.hasConcurrencyCaps()) {
            waiting.touch(partition);
        }
    }

    private void touch(Partition partition) {
        waiting.touch(partition);
    }

    private void noteCancelled(Lease lease) {
        fates.event(TaskEventType.CANCELLED, lease.task());
    }

    // ---------------------------------------------------------------- ack, reject, fail, release (TaskFates)

    @Override
    public synchronized Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        return woken(fates.ack(consumer, PublishRules.ids("ids", ids), Map.of()));
    }

    @Override
    public synchronized Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        Map<TaskId, byte[]> checked = CompletionResults.checked(results, settings.maxResultBytes());
        return woken(fates.ack(consumer, List.copyOf(checked.keySet()), checked));
    }

    /** One monitor: the acks and the first look for tasks happen with no other call in between. */
    @Override
    public synchronized AckedAndTaken ackAndConsume(ConsumerId consumer, Collection<TaskId> acks, int max,
                                                    Duration wait) {
        ensureOpen();
        AckedAndTaken done = TaskStore.super.ackAndConsume(consumer, acks, max, wait);
        return new AckedAndTaken(done.acks(), done.taken(), holdings.controls().cancelRequestedOf(consumer));
    }

    @Override
    public synchronized Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids,
                                                          Rejection rejection) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        Validate.notNull("rejection", rejection);
        return woken(fates.reject(consumer, PublishRules.ids("ids", ids), rejection));
    }

    @Override
    public synchronized Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        return woken(fates.fail(consumer, PublishRules.ids("ids", ids), reason));
    }

    @Override
    public synchronized Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        ensureOpen();
        Validate.notNull("consumer", consumer);
        return woken(fates.release(consumer, PublishRules.ids("ids", ids)));
    }

    /** After a task left a consumer's hands: a released lock or a task put back may be deliverable now. */
    private <T> T woken(T outcomes) {
        notifyAll();
        return outcomes;
    }

    // ---------------------------------------------------------------- blocks, consumers, reclaim

    @Override
    public synchronized void blockPartition(Partition partition, Duration duration) {
        ensureOpen();
        Validate.notNull("partition", partition);
        Validate.duration("duration", duration, Rejection.MAX_DURATION);
        waiting.block(partition, clock.millis() + duration.toMillis());
    }

    @Override
    public synchronized void unblockPartition(Partition partition) {
        ensureOpen();
        Validate.notNull("partition", partition);
        waiting.unblock(partition);
        notifyAll();
    }

    @Override
    public synchronized Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        ensureOpen();
        return control.heartbeat(consumer, ttl, progress);
    }

    @Override
    public synchronized Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids,
                                                               Duration extension) {
        ensureOpen();
        return control.extendLease(consumer, ids, extension);
    }

    @Override
    public synchronized ReclaimReport reclaim() {
        ensureOpen();
        long now = clock.millis();
        ReclaimReport report = reclaiming.run(now, settings, task -> fates.takeBackCrashed(task, now),
                fates::returnUnprocessed);
        notifyAll(); // returned tasks, and locks released even when their tasks died
        return report;
    }

    /** Every dead letter past the caps at once: a call here holds nothing but this store's monitor. */
    @Override
    public synchronized long trimDeadLetters() {
        ensureOpen();
        return dead.trim(settings, clock.millis(), Long.MAX_VALUE);
    }

    @Override
    public synchronized long expireCompleted() {
        ensureOpen();
        return completed.expire(clock.millis());
    }

    @Override
    public synchronized TaskEventPage events(String cursor, int limit) {
        ensureOpen();
        return events.read(cursor, limit);
    }

    // ---------------------------------------------------------------- cancel, get (InMemoryTaskControl)

    @Override
    public synchronized Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        ensureOpen();
        Map<TaskId, CancelOutcome> outcomes = control.cancel(ids);
        notifyAll(); // a cancelled ordered head may uncover a ready task
        return outcomes;
    }

    @Override
    public synchronized Optional<TaskSnapshot> get(TaskId id) {
        ensureOpen();
        return control.get(id);
    }

    // ---------------------------------------------------------------- dead letters

    @Override
    public synchronized DeadLetterPage deadLetters(int offset, int limit) {
        ensureOpen();
        new DeadLetterPageRequest(offset, limit);
        return dead.page(offset, limit);
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
            waiting.put(letter.task().redrivenAt(now));
            outcomes.put(id, RedriveOutcome.REDRIVEN);
        }
        notifyAll();
        return outcomes;
    }

    @Override
    public synchronized long redriveAll() {
        ensureOpen();
        return redrive(dead.ids()).size();
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
        return dead.purgeAll();
    }

    // ---------------------------------------------------------------- stats, pause, settings

    @Override
    public synchronized QueueStats stats() {
        ensureOpen();
        long now = clock.millis();
        long ready = waiting.readyCount(now);
        long oldestReadyAt = waiting.oldestReadyAt(now).orElse(now);
        long blocked = waiting.blockedCount(now);
        long live = consumers.liveCount(now);
        long capped = holdings.countAtCap(settings::concurrencyOf, waiting::hasPartition);
        long throttled = buckets.countThrottled(settings.partitionRateLimit(), now, waiting::hasPartition);
        return new QueueStats(ready, waiting.size() - ready, holdings.size(), dead.size(), waiting.partitionCount(),
                holdings.lockCount(), blocked, capped, throttled, live, now - oldestReadyAt, publishedTotal, fates.ackedTotal(), dead.total(),
                dead.droppedTotal(), paused, completed.size());
    }

    @Override
    public synchronized QueueInspection inspect(int limit) {
        ensureOpen();
        QueueInspection.checkedLimit(limit);
        return InMemoryInspection.read(clock.millis(), limit, waiting, holdings, consumers.expiries(),
                consumers.lastHeard());
    }

    // ---------------------------------------------------------------- task lists

    @Override
    public synchronized PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        ensureOpen();
        Validate.notNull("partition", partition);
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        return InMemoryListing.partition(partition, page, waiting, holdings, settings, clock.millis());
    }

    @Override
    public synchronized TaskPage delayedTasks(int offset, int limit) {
        ensureOpen();
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        long now = clock.millis();
        return new TaskPage(waiting.notReady(now, page.offset(), page.limit()), waiting.notReadyCount(now), offset,
                java.time.Instant.ofEpochMilli(now));
    }

    @Override
    public synchronized InFlightPage inFlightTasks(String cursor, int limit) {
        ensureOpen();
        return InMemoryListing.inFlight(CursorPageRequest.of(cursor, 2, limit), holdings, settings, clock.millis());
    }

    @Override
    public synchronized DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        ensureOpen();
        Validate.notNull("filter", filter);
        CursorPageRequest page = CursorPageRequest.of(cursor, 1, limit);
        return dead.find(filter, page.fromStart() ? 0 : page.number(0), page.limit(), clock.millis());
    }

    @Override
    public synchronized CompletedPage completedTasks(int offset, int limit) {
        ensureOpen();
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        return new CompletedPage(completed.page(page), completed.size(), offset, settings.resultRetention(),
                java.time.Instant.ofEpochMilli(clock.millis()));
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

    /** On the queue's own store, the queue's own view and every group; on a group's, that group alone. */
    @Override
    public void configure(QueueSettings newSettings) {
        Validate.notNull("settings", newSettings);
        if (group == null) {
            views.configure(newSettings);
        } else {
            apply(newSettings);
        }
    }

    /** Stores this view's settings. */
    synchronized void apply(QueueSettings newSettings) {
        ensureOpen();
        buckets.limitsChanged(!newSettings.queueRateLimit().equals(settings.queueRateLimit()),
                !newSettings.partitionRateLimit().equals(settings.partitionRateLimit()));
        settings = newSettings;
        configured = true;
        if (!newSettings.keepsEvents()) {
            events.clear();
        }
        waiting.touchAll(); // caps and limits changed: every partition is looked at again
        notifyAll();
    }

    // ---------------------------------------------------------------- schedules and groups: the queue's (QueueLevelCalls)

    @Override
    public QueueViews views() {
        return views;
    }








    /** Whether anything of this view is kept: tasks, dead letters, counters, consumers, blocks, settings. */
    synchronized boolean holdsData() {
        return publishedTotal > 0 || !dead.isEmpty() || !holdings.isEmpty() || !consumers.isEmpty() || waiting.hasBlocks()
                || !recentlyAcked.isEmpty() || completed.size() > 0 || paused || configured;
    }
}
