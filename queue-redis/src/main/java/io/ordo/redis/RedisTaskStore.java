package io.ordo.redis;

import io.ordo.domain.ConsumerId;
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
import io.ordo.ports.EventLogCursor;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.Reasons;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskIds;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskPageRequest;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisScript.ConsumeReply;
import io.ordo.redis.RedisScript.PublishReply;
import io.ordo.redis.RedisScript.ReclaimReply;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.ordo.redis.IdCalls.distinct;
import static io.ordo.redis.IdCalls.outcomes;
import static io.ordo.redis.IdCalls.outcomesWithBatch;
import static io.ordo.redis.IdCalls.taskIds;
import static io.ordo.redis.IdCalls.withIds;

/**
 * One queue on Redis: each operation is one call of its Lua script (see {@link RedisScript}), so it is
 * atomic on the server. The same class serves every Redis client; only the {@link RedisTransport}
 * under the {@link ScriptExecutor} differs.
 */
public final class RedisTaskStore implements TaskStore {
    /** How often a waiting consume looks again when time is virtual: a virtual clock moves without telling Redis. */
    private static final Duration VIRTUAL_TIME_POLL = Duration.ofMillis(5);
    /** Settings used to check a batch's shape before the queue's own payload limit is known. */
    private static final QueueSettings LARGEST_PAYLOAD = QueueSettings.builder()
            .maxPayloadBytes(QueueSettings.PAYLOAD_LIMIT).build();

    private final KeySchema keys;
    /** The queue's own keys: publishing, schedules and the groups' administration are the queue's. */
    private final KeySchema queueKeys;
    private final ScriptExecutor executor;
    private final Clock clockOverride;
    private final RedisConsumerGroups consumerGroups;
    private final RedisSchedules schedules;
    private final RedisTaskControl control;
    private final RedisDeadLetters deadLetters;
    private final RedisInspection inspection;

    /**
     * @param clockOverride null in production (scripts read the server's {@code TIME}); a clock for
     *                      tests that drive time themselves
     */
    public RedisTaskStore(QueueName queue, ScriptExecutor executor, Clock clockOverride) {
        this(KeySchema.of(Validate.notNull("queue", queue)), executor, clockOverride);
    }

    /** The store on the given keys: those of a queue, or of one shard of a sharded queue. */
    public RedisTaskStore(KeySchema keys, ScriptExecutor executor, Clock clockOverride) {
        this.keys = Validate.notNull("keys", keys);
        this.queueKeys = keys.queueKeys();
        this.executor = Validate.notNull("executor", executor);
        this.clockOverride = clockOverride;
        this.consumerGroups = new RedisConsumerGroups(keys.queue(), this::runOnQueue, this::now);
        this.schedules = new RedisSchedules(this::runOnQueue, this::now);
        this.control = new RedisTaskControl(this::run, this::now);
        this.deadLetters = new RedisDeadLetters(this::run, this::now);
        this.inspection = new RedisInspection(this::run, this::now);
    }

    @Override
    public QueueName queue() {
        return keys.queue();
    }

    @Override
    public Optional<GroupName> group() {
        return keys.group();
    }

    /** The keys of this queue, for diagnostics. */
    public KeySchema keys() {
        return keys;
    }

    // ---------------------------------------------------------------- publish, consume

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        List<NewTask> batch = validateShape(tasks);
        Args args = new Args().add(now());
        for (NewTask task : batch) {
            args.add(task.id().value()).add(TaskRecords.publishBlob(task));
        }
        List<Object> reply = runOnQueue(RedisScript.PUBLISH, args);
        if (Replies.number(reply, PublishReply.STATUS) != PublishReply.ACCEPTED) {
            // over the queue's payload limit: the domain rules name the task, exactly as every backend does
            int limit = Replies.integer(reply, PublishReply.LIMIT);
            PublishRules.validate(batch, QueueSettings.builder().maxPayloadBytes(limit).build());
            throw new InvalidInputException("tasks[" + Replies.integer(reply, PublishReply.TASK_INDEX) + "].payload",
                    "is " + Replies.number(reply, PublishReply.PAYLOAD_SIZE) + " bytes, the queue allows at most " + limit);
        }
        List<PublishReceipt> receipts = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            receipts.add(new PublishReceipt(batch.get(i).id(), RedisScript.PUBLISH.outcome(PublishOutcome.class,
                    Replies.number(reply, PublishReply.FIRST_OUTCOME + i))));
        }
        return receipts;
    }

    private List<NewTask> validateShape(List<NewTask> tasks) {
        try {
            return PublishRules.validate(tasks, LARGEST_PAYLOAD);
        } catch (InvalidInputException e) {
            if (e.field().endsWith(".payload")) {
                // names the first task over the queue's own limit
                PublishRules.validate(tasks, QueueLimits.decode(runOnQueue(RedisScript.SETTINGS, new Args().add(now()))));
            }
            throw e;
        }
    }

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        ConsumeRequest request = ConsumeRequest.taking(consumer, max, wait);
        return takeWaiting(request, run(RedisScript.CONSUME, new Args().add(now()).add(consumer.value()).add(max)), 0);
    }

    /** The acks go in one call with the first look for tasks (ack_consume), so a worker's ack costs no call of its own. */
    @Override
    public AckedAndTaken ackAndConsume(ConsumerId consumer, Collection<TaskId> acks, int max, Duration wait) {
        ConsumeRequest request = new ConsumeRequest(consumer, max, wait);
        List<TaskId> distinct = TaskIds.distinct("acks", acks);
        Args args = withIds(new Args().add(now()).add(consumer.value()).add(max).add(distinct.size()), distinct);
        List<Object> reply = run(RedisScript.ACK_CONSUME, args);
        int cancels = Replies.integer(reply, ConsumeReply.FIRST_AFTER_NOW);
        int firstAck = ConsumeReply.FIRST_AFTER_NOW + 1;
        Map<TaskId, AckOutcome> acked = new LinkedHashMap<>();
        for (int i = 0; i < distinct.size(); i++) {
            acked.put(distinct.get(i), RedisScript.ACK_CONSUME.outcome(AckOutcome.class,
                    Replies.number(reply, firstAck + i)));
        }
        Set<TaskId> cancelRequested = taskIds(reply, firstAck + distinct.size(), cancels);
        int skip = 1 + distinct.size() + cancels;
        List<Lease> taken = request.takesNone() ? List.of() : takeWaiting(request, reply, skip);
        return new AckedAndTaken(acked, taken, cancelRequested);
    }

    /**
     * The tasks a consume took ({@link ConsumeReply}, {@code skip} values after the server's now); when none and the wait allows, waits for a signal and
     * consumes again until the wait is over.
     */
    private List<Lease> takeWaiting(ConsumeRequest request, List<Object> first, int skip) {
        ConsumerId consumer = request.consumer();
        int max = request.max();
        long deadline = System.nanoTime() + request.longestWait().toNanos();
        List<Object> reply = first;
        int from = ConsumeReply.FIRST_AFTER_NOW + skip;
        while (true) {
            long leasedAt = Replies.number(reply, ConsumeReply.NOW);
            List<Lease> leases = new ArrayList<>((reply.size() - from) / 2);
            for (int i = from; i < reply.size(); i += 2) {
                TaskRecords.Stored stored = TaskRecords.held(Replies.bytes(reply, i), Replies.bytes(reply, i + 1),
                        consumer, leasedAt);
                leases.add(new Lease(stored.task(), consumer, leasedAt));
            }
            long untilDueMillis = Replies.number(reply, ConsumeReply.UNTIL_DUE);
            if (untilDueMillis == ConsumeReply.PROMOTING && !Thread.currentThread().isInterrupted()) {
                // each call makes a bounded chunk of due tasks ready and takes none until all are: the order holds
                reply = run(RedisScript.CONSUME, new Args().add(now()).add(consumer.value()).add(max));
                from = ConsumeReply.FIRST_AFTER_NOW;
                continue;
            }
            long remainingNanos = deadline - System.nanoTime();
            if (!leases.isEmpty() || remainingNanos <= 0) {
                return leases;
            }
            Duration nap = Duration.ofNanos(remainingNanos);
            if (clockOverride != null) {
                nap = min(nap, VIRTUAL_TIME_POLL);
            } else if (untilDueMillis >= 0 && Duration.ofMillis(untilDueMillis).compareTo(nap) < 0) {
                // napping until a due time: woken then by the queue's wake, BLPOP's timeout ends at a server tick
                nap = Duration.ofMillis(Math.max(untilDueMillis, 1));
                executor.wakeAfter(keys, Duration.ofMillis(untilDueMillis));
            }
            executor.awaitSignal(keys, nap);
            if (Thread.currentThread().isInterrupted()) {
                return List.of();
            }
            reply = run(RedisScript.CONSUME, new Args().add(now()).add(consumer.value()).add(max));
            from = ConsumeReply.FIRST_AFTER_NOW;
        }
    }

    // ---------------------------------------------------------------- giving tasks back

    /** One call: the results are checked against the queue's limit by the function, before anything is written. */
    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        Validate.notNull("consumer", consumer);
        Map<TaskId, byte[]> checked = CompletionResults.checked(results, QueueSettings.RESULT_LIMIT);
        Args args = new Args().add(now()).add(consumer.value());
        checked.forEach((id, result) -> args.add(id.value()).add(result));
        List<Object> reply = run(RedisScript.COMPLETE, args);
        if (!reply.isEmpty() && Replies.number(reply, 0) < 0) {
            TaskId over = List.copyOf(checked.keySet()).get(Replies.integer(reply, 1));
            throw new InvalidInputException("results[" + over.value() + "]", "is " + Replies.number(reply, 2)
                    + " bytes, the queue keeps results of at most " + Replies.number(reply, 3) + " (maxResultBytes)");
        }
        return outcomes(List.copyOf(checked.keySet()), reply, RedisScript.COMPLETE, AckOutcome.class);
    }

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        Validate.notNull("consumer", consumer);
        List<TaskId> distinct = distinct(ids);
        List<Object> reply = run(RedisScript.ACK, withIds(new Args().add(now()).add(consumer.value()), distinct));
        return outcomes(distinct, reply, RedisScript.ACK, AckOutcome.class);
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        Validate.notNull("consumer", consumer);
        Validate.notNull("rejection", rejection);
        List<TaskId> distinct = distinct(ids);
        Args args = new Args().add(now()).add(consumer.value()).add(rejection.delay().toMillis())
                .add(rejection.reason()).add(rejection.blockPartitionFor().toMillis());
        List<Object> reply = run(RedisScript.REJECT, withIds(args, distinct));
        return outcomesWithBatch(distinct, reply, RedisScript.REJECT, RejectOutcome.class);
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        Validate.notNull("consumer", consumer);
        List<TaskId> distinct = distinct(ids);
        Args args = new Args().add(now()).add(consumer.value()).add(Reasons.truncate(reason));
        List<Object> reply = run(RedisScript.FAIL, withIds(args, distinct));
        return outcomes(distinct, reply, RedisScript.FAIL, FailOutcome.class);
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        Validate.notNull("consumer", consumer);
        List<TaskId> distinct = distinct(ids);
        List<Object> reply = run(RedisScript.RELEASE, withIds(new Args().add(now()).add(consumer.value()), distinct));
        return outcomesWithBatch(distinct, reply, RedisScript.RELEASE, ReleaseOutcome.class);
    }

    // ---------------------------------------------------------------- blocks, consumers, reclaim

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        Validate.notNull("partition", partition);
        Validate.duration("duration", duration, Rejection.MAX_DURATION);
        run(RedisScript.BLOCK_PARTITION, new Args().add(now()).add(partition.code()).add(duration.toMillis()));
    }

    @Override
    public void unblockPartition(Partition partition) {
        Validate.notNull("partition", partition);
        run(RedisScript.UNBLOCK_PARTITION, new Args().add(now()).add(partition.code()));
    }

    /**
     * Calls reclaim until no dead consumer's task is left and (with a processing timeout) every live lease has
     * been looked at: each call takes back a bounded chunk (a consumer holding more is taken back over several
     * calls) and scans a bounded slice of the live leases, resumed from the cursor its reply gives, so none
     * holds the server for long.
     */
    @Override
    public ReclaimReport reclaim() {
        List<ConsumerId> dead = new ArrayList<>();
        int returned = 0;
        int buried = 0;
        int timedOut = 0;
        int cancelled = 0;
        byte[] cursor = new byte[0];
        while (true) {
            List<Object> reply = run(RedisScript.RECLAIM, new Args().add(now()).add(cursor));
            returned += Replies.integer(reply, ReclaimReply.RETURNED);
            buried += Replies.integer(reply, ReclaimReply.DEAD_LETTERED);
            timedOut += Replies.integer(reply, ReclaimReply.TIMED_OUT);
            cancelled += Replies.integer(reply, ReclaimReply.CANCELLED);
            for (int i = ReclaimReply.FIRST_DEAD; i < reply.size(); i++) {
                dead.add(ConsumerId.of(Replies.text(reply, i)));
            }
            cursor = Replies.bytes(reply, ReclaimReply.CURSOR);
            if (cursor == null || cursor.length == 0) {
                return new ReclaimReport(dead, returned, buried, timedOut, cancelled);
            }
        }
    }

    /** Calls expire_completed until it expires no more: each call expires a bounded chunk. */
    @Override
    public long expireCompleted() {
        long expired = 0;
        while (true) {
            List<Object> reply = run(RedisScript.EXPIRE_COMPLETED, new Args().add(now()));
            expired += Replies.number(reply, 0);
            if (Replies.number(reply, 1) == 0) {
                return expired;
            }
        }
    }

    // ---------------------------------------------------------------- task control (RedisTaskControl)

    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        return control.heartbeat(consumer, ttl, progress);
    }

    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        return control.extendLease(consumer, ids, extension);
    }

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        return control.cancel(ids);
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        return control.get(id);
    }

    // ---------------------------------------------------------------- dead letters (RedisDeadLetters)

    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        return deadLetters.page(offset, limit);
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        return deadLetters.redrive(ids);
    }

    @Override
    public long redriveAll() {
        return deadLetters.redriveAll();
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        return deadLetters.purge(ids);
    }

    @Override
    public long purgeAllDeadLetters() {
        return deadLetters.purgeAll();
    }

    @Override
    public long trimDeadLetters() {
        return deadLetters.trim();
    }

    // ---------------------------------------------------------------- task lists (one bounded call each)

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        Validate.notNull("partition", partition);
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        List<Object> reply = run(RedisScript.PARTITION_TASKS, new Args().add(now()).add(partition.code())
                .add(page.offset()).add(page.limit()));
        return TaskListReplies.partitionTasks(partition, page.offset(), reply);
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        return TaskListReplies.delayedTasks(page.offset(),
                run(RedisScript.DELAYED_TASKS, new Args().add(now()).add(page.offset()).add(page.limit())));
    }

    /** A cursor: the holder to go on with, its HSCAN cursor, and how many of that scan's entries were listed. */
    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        CursorPageRequest page = CursorPageRequest.of(cursor, 3, limit);
        Args args = new Args().add(now()).add(page.limit());
        if (page.fromStart()) {
            args.add("").add("0").add(0);
        } else {
            args.add(page.part(0)).add(page.digits(1)).add(page.number(2));
        }
        return TaskListReplies.inFlightTasks(run(RedisScript.IN_FLIGHT_TASKS, args));
    }

    /** A cursor: the seq of the last event read (event_log.lua). */
    @Override
    public TaskEventPage events(String cursor, int limit) {
        long after = EventLogCursor.after(cursor);
        EventLogCursor.checkLimit(limit);
        return EventLogRecords.page(cursor, after, run(RedisScript.TASK_EVENTS, new Args().add(after).add(limit)));
    }

    /** A cursor: the death number (the score in {@code dead}) of the last dead letter examined. */
    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        Validate.notNull("filter", filter);
        CursorPageRequest page = CursorPageRequest.of(cursor, 1, limit);
        Args args = new Args().add(now()).add(page.fromStart() ? "" : Long.toString(page.number(0)))
                .add(page.limit()).add(MAX_EXAMINED)
                .add(filter.reasonContains() == null ? "" : filter.reasonContains())
                .add(filter.partition() == null ? "" : filter.partition().code())
                .add(filter.diedFrom() == null ? "" : Long.toString(filter.diedFrom().toEpochMilli()))
                .add(filter.diedBefore() == null ? "" : Long.toString(filter.diedBefore().toEpochMilli()));
        return TaskListReplies.deadLetterMatches(run(RedisScript.FIND_DEAD_LETTERS, args));
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        return TaskListReplies.completedTasks(page.offset(),
                run(RedisScript.COMPLETED_TASKS, new Args().add(now()).add(page.offset()).add(page.limit())));
    }

    // ---------------------------------------------------------------- stats, pause, settings

    @Override
    public QueueStats stats() {
        List<Object> r = run(RedisScript.STATS, new Args().add(now()));
        return new QueueStats(Replies.number(r, 0), Replies.number(r, 1), Replies.number(r, 2), Replies.number(r, 3),
                Replies.number(r, 4), Replies.number(r, 5), Replies.number(r, 6), Replies.number(r, 7),
                Replies.number(r, 8), Replies.number(r, 9), Replies.number(r, 10), Replies.number(r, 11),
                Replies.number(r, 12), Replies.number(r, 13), Replies.number(r, 15), Replies.number(r, 14) == 1,
                Replies.number(r, 16));
    }

    @Override
    public QueueInspection inspect(int limit) {
        return inspection.read(limit);
    }

    @Override
    public void pause() {
        run(RedisScript.PAUSE, new Args().add(now()));
    }

    @Override
    public void resume() {
        run(RedisScript.RESUME, new Args().add(now()));
    }

    @Override
    public QueueSettings settings() {
        return QueueLimits.decode(run(RedisScript.SETTINGS, new Args().add(now())));
    }

    @Override
    public void configure(QueueSettings settings) {
        Validate.notNull("settings", settings);
        run(RedisScript.CONFIGURE, new Args().add(now()).add(settings.maxAttempts())
                .add(settings.processingTimeout().toMillis()).add(settings.dedupWindow().toMillis())
                .add(settings.heartbeatTtl().toMillis()).add(settings.maxPayloadBytes())
                .add(QueueLimits.encode(settings)).add(QueueLimits.deadLetterCaps(settings))
                .add(QueueLimits.results(settings)));
    }

    @Override
    public String toString() {
        return "RedisTaskStore[" + keys.tag() + " on " + executor.endpoint() + "]";
    }

    // ---------------------------------------------------------------- helpers

    private List<Object> run(RedisScript script, Args args) {
        return executor.run(script, keys, args.toArray());
    }

    private List<Object> runOnQueue(RedisScript script, Args args) {
        return executor.run(script, queueKeys, args.toArray());
    }

    // ---------------------------------------------------------------- consumer groups (RedisConsumerGroups)

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

    // ---------------------------------------------------------------- schedules (RedisSchedules)

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

    @Override
    public ScheduleFiring fireDueSchedules() {
        return schedules.fireDue();
    }

    /** The override clock's now, or empty: the scripts then read the server's TIME. */
    private String now() {
        return clockOverride == null ? "" : Long.toString(clockOverride.millis());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
