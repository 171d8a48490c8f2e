package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.QueueUnavailableException;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A store that can be taken down: every call fails with {@link QueueUnavailableException} while it
 * is down, as a Redis store does when the server is gone. It can also lose the answer of the next
 * consume after applying it, as happens when the server dies mid-call.
 */
final class FaultyTaskStore implements TaskStore {
    private final TaskStore delegate;
    private final Clock clock;
    private final List<Long> consumeAttempts = new CopyOnWriteArrayList<>();
    private final List<ConsumerId> consumers = new CopyOnWriteArrayList<>();
    private volatile boolean down;
    private volatile boolean loseNextConsumeAnswer;
    private volatile boolean acksDown;
    private volatile boolean loseNextAckAnswer;

    FaultyTaskStore(TaskStore delegate, Clock clock) {
        this.delegate = delegate;
        this.clock = clock;
    }

    void goDown() {
        down = true;
    }

    void comeBack() {
        down = false;
        acksDown = false;
    }

    void failAcks() {
        acksDown = true;
    }

    void loseNextAckAnswer() {
        loseNextAckAnswer = true;
    }

    void loseNextConsumeAnswer() {
        loseNextConsumeAnswer = true;
    }

    /** The clock's time at every consume call, failed or not. */
    List<Long> consumeAttempts() {
        return List.copyOf(consumeAttempts);
    }

    /** The consumer name of every consume call. */
    List<ConsumerId> consumers() {
        return List.copyOf(consumers);
    }

    private <R> R call(Supplier<R> operation) {
        if (down) {
            throw new QueueUnavailableException("Redis at test:0 is unavailable: connection refused");
        }
        return operation.get();
    }

    private void run(Runnable operation) {
        call(() -> {
            operation.run();
            return null;
        });
    }

    @Override
    public QueueName queue() {
        return delegate.queue();
    }

    @Override
    public Optional<GroupName> group() {
        return delegate.group();
    }

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        return call(() -> delegate.publish(tasks));
    }

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        consumeAttempts.add(clock.millis());
        consumers.add(consumer);
        if (loseNextConsumeAnswer && !down) {
            List<Lease> leased = delegate.consume(consumer, max, wait);
            if (!leased.isEmpty()) {
                loseNextConsumeAnswer = false;
                throw new QueueUnavailableException("Redis at test:0 is unavailable: connection reset after sending");
            }
            return leased;
        }
        return call(() -> delegate.consume(consumer, max, down ? Duration.ZERO : wait));
    }

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        if (acksDown) {
            throw new QueueUnavailableException("Redis at test:0 is unavailable: connection refused");
        }
        if (loseNextAckAnswer) {
            loseNextAckAnswer = false;
            delegate.ack(consumer, ids);
            throw new QueueUnavailableException("Redis at test:0 is unavailable: connection reset after sending");
        }
        return call(() -> delegate.ack(consumer, ids));
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        return call(() -> delegate.reject(consumer, ids, rejection));
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        return call(() -> delegate.fail(consumer, ids, reason));
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        return call(() -> delegate.release(consumer, ids));
    }

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        run(() -> delegate.blockPartition(partition, duration));
    }

    @Override
    public void unblockPartition(Partition partition) {
        run(() -> delegate.unblockPartition(partition));
    }

    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        return call(() -> delegate.heartbeat(consumer, ttl, progress));
    }

    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        return call(() -> delegate.extendLease(consumer, ids, extension));
    }

    @Override
    public ReclaimReport reclaim() {
        return call(delegate::reclaim);
    }

    @Override
    public long trimDeadLetters() {
        return call(delegate::trimDeadLetters);
    }

    @Override
    public long expireCompleted() {
        return call(delegate::expireCompleted);
    }

    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        return call(() -> delegate.complete(consumer, results));
    }

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        return call(() -> delegate.cancel(ids));
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        return call(() -> delegate.get(id));
    }

    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        return call(() -> delegate.deadLetters(offset, limit));
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        return call(() -> delegate.redrive(ids));
    }

    @Override
    public long redriveAll() {
        return call(delegate::redriveAll);
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        return call(() -> delegate.purgeDeadLetters(ids));
    }

    @Override
    public long purgeAllDeadLetters() {
        return call(delegate::purgeAllDeadLetters);
    }

    @Override
    public QueueStats stats() {
        return call(delegate::stats);
    }

    @Override
    public QueueInspection inspect(int limit) {
        return call(() -> delegate.inspect(limit));
    }

    @Override
    public void pause() {
        run(delegate::pause);
    }

    @Override
    public void resume() {
        run(delegate::resume);
    }

    @Override
    public QueueSettings settings() {
        return call(delegate::settings);
    }

    @Override
    public void configure(QueueSettings settings) {
        run(() -> delegate.configure(settings));
    }

    @Override
    public ScheduleFiring fireDueSchedules() {
        return call(delegate::fireDueSchedules);
    }

    @Override
    public boolean putSchedule(Schedule schedule) {
        return call(() -> delegate.putSchedule(schedule));
    }

    @Override
    public boolean removeSchedule(String id) {
        return call(() -> delegate.removeSchedule(id));
    }

    @Override
    public java.util.List<ScheduleEntry> schedules() {
        return call(delegate::schedules);
    }

    @Override
    public boolean createGroup(GroupName group) {
        return call(() -> delegate.createGroup(group));
    }

    @Override
    public boolean createGroup(GroupName group, GroupName backlogOf) {
        return call(() -> delegate.createGroup(group, backlogOf));
    }

    @Override
    public List<GroupName> groups() {
        return call(delegate::groups);
    }

    @Override
    public boolean deleteGroup(GroupName group) {
        return call(() -> delegate.deleteGroup(group));
    }

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        return call(() -> delegate.partitionTasks(partition, offset, limit));
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        return call(() -> delegate.delayedTasks(offset, limit));
    }

    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        return call(() -> delegate.inFlightTasks(cursor, limit));
    }

    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        return call(() -> delegate.findDeadLetters(filter, cursor, limit));
    }

    @Override
    public TaskEventPage events(String cursor, int limit) {
        return call(() -> delegate.events(cursor, limit));
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        return call(() -> delegate.completedTasks(offset, limit));
    }
}
