package io.ordo.sharding;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletionResults;
import io.ordo.ports.ConsumeRequest;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.DeadLetterPageRequest;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.LeaseControls;
import io.ordo.ports.PartitionTasks;
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
import io.ordo.ports.TaskIds;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskStore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * One queue spread over N shards, each a queue of its own ({@link ShardSource}); for a queue too big for
 * one Redis node (docs/scaling.md). A partition always lives on shard {@link #shardOf(Partition, int)},
 * so everything docs/contract.md promises within a partition holds; across partitions of different shards, order
 * (priority, round robin) holds per shard and consumers visit the shards in turn.
 *
 * <ul>
 *   <li>publish: one atomic step per shard the batch touches (a batch on one shard stays atomic);</li>
 *   <li>consume: starts at the next shard in turn and fills up from the following ones; a waiting consume
 *       waits on every shard at once ({@link ShardWaits}), each wait a wake interval long at most;</li>
 *   <li>ack, reject, fail, release: routed to the shard a lease came from, remembered from consume
 *       ({@link ShardRoutes}); an id this store did not hand out is asked of every shard;</li>
 *   <li>cancel, get, redrive, purge by id: asked of every shard (get stops at the first that has it);</li>
 *   <li>heartbeat, reclaim, pause, resume, configure: every shard; stats, inspection and dead letters: merged;</li>
 *   <li>task lists: a partition's from its shard, the delayed tasks merged by ready time and the completed ones
 *       by expiry, the tasks in flight and dead-letter searches shard by shard (a cursor names the shard and
 *       where its own listing goes on).</li>
 * </ul>
 *
 * <p>Consumer groups (docs/groups.md): a group of a sharded queue is the group of that name on every shard,
 * so a publish fans out to the groups within each shard. {@link #forGroup} gives a sharded store over
 * the group's stores of the shards ({@link GroupShardSource}, given to the {@link Builder}); its
 * publishing and schedules are the queue's store's. {@code createGroup}, {@code groups} and
 * {@code deleteGroup} apply to every shard, one after the other.
 */
public final class ShardedTaskStore implements TaskStore {
    /** Shards a queue may have at most (as many as Redis shard keys allow). */
    public static final int MAX_SHARDS = 1024;
    /** How long one wait on a shard lasts at most before the waiting consume starts another. */
    public static final Duration DEFAULT_WAKE_INTERVAL = Duration.ofMillis(200);
    /** Leases whose shard is remembered at most; past it the memory starts again (routes are only hints). */
    public static final int DEFAULT_ROUTE_CAPACITY = 100_000;
    private static final QueueSettings LARGEST_PAYLOAD = QueueSettings.builder()
            .maxPayloadBytes(QueueSettings.PAYLOAD_LIMIT).build();

    private final QueueName queue;
    private final List<TaskStore> shards;
    private final ShardWaits waits;
    private final ShardedTaskLists lists;
    private final ShardedEventLog eventLog;
    private final ShardedStats stats;
    /** The queue's, shared by the stores of its groups. */
    private final ShardedSchedules schedules;
    /** The queue's, shared by the stores of its groups. */
    private final ShardedConsumerGroups consumerGroups;
    private final ShardRoutes routes;
    /** What made this store, for the stores of its groups. */
    private final Builder builder;
    /** The group this store serves, or null for the queue's own view. */
    private final GroupName group;
    /** The store of the queue's own view: this one, or the one whose group this is. */
    private final ShardedTaskStore queueStore;
    private final AtomicInteger nextStart = new AtomicInteger();

    private ShardedTaskStore(Builder builder, ShardedTaskStore queueStore, GroupName group) {
        this.queue = builder.queue;
        this.builder = builder;
        this.group = group;
        this.queueStore = queueStore == null ? this : queueStore;
        List<TaskStore> stores = new ArrayList<>(builder.shards);
        for (int i = 0; i < builder.shards; i++) {
            stores.add(Validate.notNull("shard " + i, group == null ? builder.source.shard(builder.queue, i)
                    : builder.groupSource.shard(builder.queue, i, group)));
        }
        this.shards = List.copyOf(stores);
        this.lists = new ShardedTaskLists(shards, this::shardOf);
        this.eventLog = new ShardedEventLog(shards);
        this.stats = new ShardedStats(shards);
        this.schedules = queueStore == null ? new ShardedSchedules(shards, this::shardOf) : queueStore.schedules;
        this.consumerGroups = queueStore == null ? new ShardedConsumerGroups(shards) : queueStore.consumerGroups;
        this.routes = new ShardRoutes(shards, builder.routeCapacity);
        this.waits = new ShardWaits(shards.size(), builder.wakeInterval,
                (shard, consumer, max, slice) ->
                        routes.remember(shard, shards.get(shard).consume(consumer, max, slice)),
                this::release);
    }

    /** A sharded store with the defaults: {@code ShardedTaskStore.create(orders, 8, factory::forShard)}. */
    public static ShardedTaskStore create(QueueName queue, int shards, ShardSource source) {
        return builder(queue, shards, source).build();
    }

    public static Builder builder(QueueName queue, int shards, ShardSource source) {
        return new Builder(queue, shards, source);
    }

    /**
     * The shard of a partition: CRC-32 (IEEE 802.3, as {@code java.util.zip.CRC32}) of the UTF-8 bytes of
     * its code, {@code !} included for an ordered one, modulo the number of shards. Stable across
     * processes, versions and languages; it changes with the number of shards.
     */
    public static int shardOf(Partition partition, int shards) {
        Validate.notNull("partition", partition);
        Validate.range("shards", shards, 1, MAX_SHARDS);
        CRC32 crc = new CRC32();
        crc.update(partition.code().getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    public int shardOf(Partition partition) {
        return shardOf(partition, shards.size());
    }

    public int shardCount() {
        return shards.size();
    }

    @Override
    public QueueName queue() {
        return queue;
    }

    @Override
    public Optional<GroupName> group() {
        return Optional.ofNullable(group);
    }

    /**
     * The sharded store of one consumer group of this queue, over that group's store on each shard (the
     * group need not exist: see {@link io.ordo.ports.TaskStoreFactory#forGroup}). Needs the builder's
     * {@link Builder#groups GroupShardSource}.
     */
    public ShardedTaskStore forGroup(GroupName group) {
        Validate.notNull("group", group);
        if (builder.groupSource == null) {
            throw new UnsupportedOperationException("the sharded store of queue " + queue
                    + " was built without a GroupShardSource: it has no stores of consumer groups");
        }
        return new ShardedTaskStore(builder, queueStore, group);
    }

    // ---------------------------------------------------------------- publish, consume

    /** A group's store publishes as the queue's does: to the groups of each shard the batch touches. */
    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        if (queueStore != this) {
            return queueStore.publish(tasks);
        }
        List<NewTask> batch = PublishRules.validate(tasks, LARGEST_PAYLOAD);
        Map<Integer, List<Integer>> positionsByShard = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            positionsByShard.computeIfAbsent(shardOf(batch.get(i).partition()), shard -> new ArrayList<>()).add(i);
        }
        if (positionsByShard.size() == 1) {
            return shards.get(positionsByShard.keySet().iterator().next()).publish(batch); // atomic as it is
        }
        // the shards check payloads one part at a time: check the whole batch first, so nothing is written
        PublishRules.validate(batch, settings());
        PublishReceipt[] receipts = new PublishReceipt[batch.size()];
        Set<TaskId> seen = new HashSet<>();
        for (int i = 0; i < batch.size(); i++) {
            if (!seen.add(batch.get(i).id())) {
                receipts[i] = new PublishReceipt(batch.get(i).id(), PublishOutcome.DUPLICATE); // first one wins
            }
        }
        positionsByShard.forEach((shard, positions) -> {
            List<Integer> sent = positions.stream().filter(i -> receipts[i] == null).toList();
            if (sent.isEmpty()) {
                return;
            }
            List<PublishReceipt> part = shards.get(shard).publish(sent.stream().map(batch::get).toList());
            for (int j = 0; j < sent.size(); j++) {
                receipts[sent.get(j)] = part.get(j);
            }
        });
        return List.of(receipts);
    }

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        ConsumeRequest.taking(consumer, max, wait);
        long deadline = System.nanoTime() + wait.toNanos();
        int shard = Math.floorMod(nextStart.getAndIncrement(), shards.size());
        List<Lease> taken = new ArrayList<>();
        for (int i = 0; i < shards.size() && taken.size() < max; i++) {
            int next = (shard + i) % shards.size();
            taken.addAll(routes.remember(next, shards.get(next).consume(consumer, max - taken.size(), Duration.ZERO)));
        }
        if (taken.isEmpty() && !wait.isZero()) {
            taken = waits.await(consumer, max, deadline);
        }
        return taken;
    }

    // ---------------------------------------------------------------- giving tasks back

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        Validate.notNull("consumer", consumer);
        return routes.settle(ids, AckOutcome.LEASE_LOST, (store, part) -> store.ack(consumer, part));
    }

    /**
     * Routed as ack is. The results are checked against the queue's limit before any shard is called (every
     * shard has the queue's settings): a shard refusing one after another acked its own would half-write.
     */
    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        Validate.notNull("consumer", consumer);
        Map<TaskId, byte[]> checked = CompletionResults.checked(results, QueueSettings.RESULT_LIMIT);
        CompletionResults.checked(checked, settings().maxResultBytes());
        return routes.settle(checked.keySet(), AckOutcome.LEASE_LOST, (store, part) -> {
            Map<TaskId, byte[]> ofShard = new LinkedHashMap<>();
            part.forEach(id -> ofShard.put(id, checked.get(id)));
            return store.complete(consumer, ofShard);
        });
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        Validate.notNull("consumer", consumer);
        Validate.notNull("rejection", rejection);
        return routes.settle(ids, RejectOutcome.LEASE_LOST, (store, part) -> store.reject(consumer, part, rejection));
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        Validate.notNull("consumer", consumer);
        return routes.settle(ids, FailOutcome.LEASE_LOST, (store, part) -> store.fail(consumer, part, reason));
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        Validate.notNull("consumer", consumer);
        return routes.settle(ids, ReleaseOutcome.LEASE_LOST, (store, part) -> store.release(consumer, part));
    }

    // ---------------------------------------------------------------- the queue's schedules (ShardedSchedules)

    @Override
    public ScheduleFiring fireDueSchedules() {
        return schedules.fireDue();
    }

    @Override
    public boolean putSchedule(Schedule schedule) {
        return schedules.put(schedule);
    }

    @Override
    public boolean removeSchedule(String id) {
        return schedules.remove(id);
    }

    @Override
    public List<ScheduleEntry> schedules() {
        return schedules.list();
    }

    // ---------------------------------------------------------------- the queue's consumer groups (ShardedConsumerGroups)

    @Override
    public boolean createGroup(GroupName group) {
        return consumerGroups.create(group);
    }

    @Override
    public boolean createGroup(GroupName group, GroupName backlogOf) {
        return consumerGroups.create(group, backlogOf);
    }

    @Override
    public List<GroupName> groups() {
        return consumerGroups.list();
    }

    @Override
    public boolean deleteGroup(GroupName group) {
        return consumerGroups.delete(group);
    }

    // ---------------------------------------------------------------- blocks, consumers, reclaim

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        Validate.notNull("partition", partition);
        shards.get(shardOf(partition)).blockPartition(partition, duration);
    }

    @Override
    public void unblockPartition(Partition partition) {
        Validate.notNull("partition", partition);
        shards.get(shardOf(partition)).unblockPartition(partition);
    }

    /**
     * On every shard: the consumer may hold tasks of any of them, and each shard's reclaim reads its own; each
     * shard keeps the progress of the tasks it holds (and ignores the others').
     */
    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        Map<TaskId, Progress> reports = LeaseControls.progress(progress);
        Set<TaskId> cancelRequested = new LinkedHashSet<>();
        shards.forEach(shard -> cancelRequested.addAll(shard.heartbeat(consumer, ttl, reports)));
        return cancelRequested;
    }

    /** Routed as ack is: to the shard a lease came from, else asked of every shard. */
    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        Validate.notNull("consumer", consumer);
        LeaseControls.extensionMillis(extension);
        return routes.routed(ids, ExtendOutcome.LEASE_LOST,
                (store, part) -> store.extendLease(consumer, part, extension));
    }

    /**
     * Every shard in turn. One reclaim at a time per store: shards are reclaimed apart, so two at once
     * would each report the same dead consumer (tasks still come back exactly once either way).
     */
    @Override
    public synchronized ReclaimReport reclaim() {
        Set<ConsumerId> dead = new TreeSet<>(Comparator.comparing(ConsumerId::value));
        int returned = 0;
        int deadLettered = 0;
        int timedOut = 0;
        int cancelled = 0;
        for (TaskStore shard : shards) {
            ReclaimReport report = shard.reclaim();
            dead.addAll(report.deadConsumers());
            returned += report.returned();
            deadLettered += report.deadLettered();
            timedOut += report.timedOut();
            cancelled += report.cancelled();
        }
        return new ReclaimReport(List.copyOf(dead), returned, deadLettered, timedOut, cancelled);
    }

    /** Every shard in turn: each keeps its own dead letters, within the caps the queue's settings give every shard. */
    @Override
    public long trimDeadLetters() {
        return shards.stream().mapToLong(TaskStore::trimDeadLetters).sum();
    }

    @Override
    public long expireCompleted() {
        return shards.stream().mapToLong(TaskStore::expireCompleted).sum();
    }

    // ---------------------------------------------------------------- cancel, get

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        return routes.everyShard(ids, CancelOutcome.UNKNOWN, TaskStore::cancel);
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        return routes.get(id);
    }

    // ---------------------------------------------------------------- dead letters

    /**
     * The shards' dead letters merged by when they died (ties: shard order). Reads up to
     * {@code offset + limit} of each shard's oldest, so deep pages cost more than on one queue.
     */
    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        new DeadLetterPageRequest(offset, limit);
        long wanted = (long) offset + limit;
        List<DeadLetter> merged = new ArrayList<>();
        long total = 0;
        for (TaskStore shard : shards) {
            DeadLetterPage page = shard.deadLetters(0, (int) Math.min(wanted, MAX_CONSUME));
            total += page.total();
            merged.addAll(page.items());
            long read = page.items().size();
            while (read < Math.min(wanted, page.total())) {
                DeadLetterPage more = shard.deadLetters((int) read, (int) Math.min(wanted - read, MAX_CONSUME));
                if (more.items().isEmpty()) {
                    break;
                }
                merged.addAll(more.items());
                read += more.items().size();
            }
        }
        merged.sort(Comparator.comparingLong(DeadLetter::deadAt)); // stable: shard order breaks ties
        List<DeadLetter> page = merged.subList((int) Math.min(offset, merged.size()),
                (int) Math.min(wanted, merged.size()));
        return new DeadLetterPage(page, total, offset);
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        return routes.everyShard(ids, RedriveOutcome.UNKNOWN, TaskStore::redrive);
    }

    @Override
    public long redriveAll() {
        return shards.stream().mapToLong(TaskStore::redriveAll).sum();
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        List<TaskId> distinct = TaskIds.distinct("ids", ids);
        return distinct.isEmpty() ? 0 : shards.stream().mapToLong(shard -> shard.purgeDeadLetters(distinct)).sum();
    }

    @Override
    public long purgeAllDeadLetters() {
        return shards.stream().mapToLong(TaskStore::purgeAllDeadLetters).sum();
    }

    @Override
    public TaskEventPage events(String cursor, int limit) {
        return eventLog.events(cursor, limit);
    }

    // ---------------------------------------------------------------- task lists (ShardedTaskLists)

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        return lists.partitionTasks(partition, offset, limit);
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        return lists.delayedTasks(offset, limit);
    }

    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        return lists.inFlightTasks(cursor, limit);
    }

    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        return lists.findDeadLetters(filter, cursor, limit);
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        return lists.completedTasks(offset, limit);
    }

    // ---------------------------------------------------------------- stats (ShardedStats), pause, settings

    @Override
    public QueueStats stats() {
        return stats.stats();
    }

    @Override
    public QueueInspection inspect(int limit) {
        return stats.inspect(limit);
    }

    @Override
    public void pause() {
        shards.forEach(TaskStore::pause);
    }

    @Override
    public void resume() {
        shards.forEach(TaskStore::resume);
    }

    /** Shard 0's: {@link #configure} writes every shard alike. */
    @Override
    public QueueSettings settings() {
        return shards.get(0).settings();
    }

    @Override
    public void configure(QueueSettings settings) {
        Validate.notNull("settings", settings);
        shards.forEach(shard -> shard.configure(settings));
    }

    @Override
    public String toString() {
        return "ShardedTaskStore[" + queue + (group == null ? "" : ", group " + group) + " over " + shards.size()
                + " shards: " + shards + "]";
    }

    public static final class Builder {
        private final QueueName queue;
        private final int shards;
        private final ShardSource source;
        private GroupShardSource groupSource;
        private Duration wakeInterval = DEFAULT_WAKE_INTERVAL;
        private int routeCapacity = DEFAULT_ROUTE_CAPACITY;

        private Builder(QueueName queue, int shards, ShardSource source) {
            this.queue = Validate.notNull("queue", queue);
            this.shards = Validate.range("shards", shards, 1, MAX_SHARDS);
            this.source = Validate.notNull("source", source);
        }

        /**
         * How long one wait on a shard lasts at most before the waiting consume starts another (default
         * 200 ms): the longest a wait outlives its consume, and each waiting consumer's calls per interval.
         */
        public Builder wakeInterval(Duration value) {
            Validate.duration("wakeInterval", value, Duration.ofMinutes(1));
            if (value.isZero()) {
                throw new InvalidInputException("wakeInterval", "must be positive");
            }
            wakeInterval = value;
            return this;
        }

        /** How many leases' shards are remembered for routing acks (default 100,000). */
        public Builder routeCapacity(int value) {
            routeCapacity = Validate.range("routeCapacity", value, 1, Integer.MAX_VALUE);
            return this;
        }

        /** Where the shards' consumer groups live, for {@link ShardedTaskStore#forGroup} (none by default). */
        public Builder groups(GroupShardSource value) {
            groupSource = Validate.notNull("groups", value);
            return this;
        }

        public ShardedTaskStore build() {
            return new ShardedTaskStore(copy(), null, null);
        }

        /** This builder as it is now: a store's groups are built as it was. */
        private Builder copy() {
            Builder copy = new Builder(queue, shards, source);
            copy.groupSource = groupSource;
            copy.wakeInterval = wakeInterval;
            copy.routeCapacity = routeCapacity;
            return copy;
        }
    }
}
