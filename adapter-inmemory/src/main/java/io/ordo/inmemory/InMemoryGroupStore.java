package io.ordo.inmemory;

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
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskPage;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.FailOutcome;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;

/**
 * The store of one consumer group of a queue ({@code forGroup}), by name: each call finds the group's
 * state as it is then, so the store outlives a deletion and serves a group created again under the same
 * name. Publishing, the schedules and the groups' administration are the queue's ({@link QueueViews}) and
 * work whether the group exists or not; every other call is refused naming {@code group} while it does not.
 */
final class InMemoryGroupStore implements TaskStore, QueueLevelCalls {
    private final QueueViews views;
    private final GroupName group;

    InMemoryGroupStore(QueueViews views, GroupName group) {
        this.views = views;
        this.group = group;
    }

    private InMemoryTaskStore state() {
        return views.group(group);
    }

    @Override
    public QueueName queue() {
        return views.queue();
    }

    @Override
    public Optional<GroupName> group() {
        return Optional.of(group);
    }

    @Override
    public QueueSettings settings() {
        return state().settings();
    }

    // ---------------------------------------------------------------- the queue's

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        return views.publish(tasks);
    }








    @Override
    public QueueViews views() {
        return views;
    }

    // ---------------------------------------------------------------- the group's

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        return state().consume(consumer, max, wait);
    }

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        return state().ack(consumer, ids);
    }

    @Override
    public AckedAndTaken ackAndConsume(ConsumerId consumer, Collection<TaskId> acks, int max, Duration wait) {
        return state().ackAndConsume(consumer, acks, max, wait);
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        return state().reject(consumer, ids, rejection);
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        return state().fail(consumer, ids, reason);
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        return state().release(consumer, ids);
    }

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        state().blockPartition(partition, duration);
    }

    @Override
    public void unblockPartition(Partition partition) {
        state().unblockPartition(partition);
    }

    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        return state().heartbeat(consumer, ttl, progress);
    }

    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        return state().extendLease(consumer, ids, extension);
    }

    @Override
    public ReclaimReport reclaim() {
        return state().reclaim();
    }

    @Override
    public long trimDeadLetters() {
        return state().trimDeadLetters();
    }

    @Override
    public long expireCompleted() {
        return state().expireCompleted();
    }

    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        return state().complete(consumer, results);
    }

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        return state().cancel(ids);
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        return state().get(id);
    }

    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        return state().deadLetters(offset, limit);
    }

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        return state().partitionTasks(partition, offset, limit);
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        return state().delayedTasks(offset, limit);
    }

    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        return state().inFlightTasks(cursor, limit);
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        return state().completedTasks(offset, limit);
    }

    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        return state().findDeadLetters(filter, cursor, limit);
    }

    @Override
    public TaskEventPage events(String cursor, int limit) {
        return state().events(cursor, limit);
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        return state().redrive(ids);
    }

    @Override
    public long redriveAll() {
        return state().redriveAll();
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        return state().purgeDeadLetters(ids);
    }

    @Override
    public long purgeAllDeadLetters() {
        return state().purgeAllDeadLetters();
    }

    @Override
    public QueueStats stats() {
        return state().stats();
    }

    @Override
    public QueueInspection inspect(int limit) {
        return state().inspect(limit);
    }

    @Override
    public void pause() {
        state().pause();
    }

    @Override
    public void resume() {
        state().resume();
    }

    @Override
    public void configure(QueueSettings settings) {
        state().configure(settings);
    }

    @Override
    public String toString() {
        return "InMemoryGroupStore[" + views.queue() + ", group " + group + "]";
    }
}
