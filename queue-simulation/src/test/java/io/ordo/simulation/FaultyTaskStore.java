package io.ordo.simulation;

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
import io.ordo.domain.TaskState;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Wraps a correct store and breaks one promise at the port, to prove the checker notices. */
final class FaultyTaskStore implements TaskStore {

    enum Fault {
        /** A consume also hands out an ordered task another consumer still holds. */
        REDELIVERS_HELD_ORDERED_TASK,
        /** A reject reports RETURNED but the task silently disappears. */
        DROPS_REJECTED_TASK,
        /** A consume lists the first two tasks of an ordered run swapped. */
        SWAPS_ORDERED_RUN,
        /** A lease reports one attempt fewer than it should. */
        MISCOUNTS_ATTEMPTS,
        /** get() says PENDING for a task that is delayed. */
        MISREPORTS_DELAYED_STATE
    }

    private final TaskStore delegate;
    private final Fault fault;
    private final List<Lease> ordered = new ArrayList<>();

    FaultyTaskStore(TaskStore delegate, Fault fault) {
        this.delegate = delegate;
        this.fault = fault;
    }

    @Override
    public List<Lease> consume(ConsumerId consumer, int max, Duration wait) {
        List<Lease> leases = new ArrayList<>(delegate.consume(consumer, max, wait));
        switch (fault) {
            case REDELIVERS_HELD_ORDERED_TASK -> {
                for (Lease earlier : ordered) {
                    Optional<TaskSnapshot> now = delegate.get(earlier.id());
                    if (leases.size() < max && now.isPresent() && now.get().state() == TaskState.IN_FLIGHT
                            && !now.get().holder().orElseThrow().equals(consumer)) {
                        leases.add(new Lease(now.get().task(), consumer, earlier.leasedAt()));
                        break;
                    }
                }
                leases.stream().filter(lease -> lease.partition().isOrdered()).forEach(ordered::add);
            }
            case SWAPS_ORDERED_RUN -> {
                for (int i = 0; i + 1 < leases.size(); i++) {
                    Partition partition = leases.get(i).partition();
                    if (partition.isOrdered() && leases.get(i + 1).partition().equals(partition)) {
                        leases.set(i, leases.set(i + 1, leases.get(i)));
                        break;
                    }
                }
            }
            case MISCOUNTS_ATTEMPTS -> leases.replaceAll(lease -> lease.task().attempts() > 1
                    ? new Lease(lease.task().withAttempts(lease.task().attempts() - 1), lease.consumer(),
                    lease.leasedAt())
                    : lease);
            default -> {
            }
        }
        return leases;
    }

    @Override
    public Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection) {
        if (fault != Fault.DROPS_REJECTED_TASK || ids.size() != 1) {
            return delegate.reject(consumer, ids, rejection);
        }
        TaskId id = ids.iterator().next();
        Optional<TaskSnapshot> task = delegate.get(id);
        boolean plain = task.isPresent() && task.get().holder().filter(consumer::equals).isPresent()
                && !task.get().task().partition().isOrdered()
                && task.get().task().attempts() < delegate.settings().maxAttempts();
        if (!plain) {
            return delegate.reject(consumer, ids, rejection);
        }
        delegate.ack(consumer, List.of(id));
        Map<TaskId, RejectOutcome> result = new LinkedHashMap<>();
        result.put(id, RejectOutcome.RETURNED);
        return result;
    }

    @Override
    public Optional<TaskSnapshot> get(TaskId id) {
        Optional<TaskSnapshot> snapshot = delegate.get(id);
        if (fault == Fault.MISREPORTS_DELAYED_STATE && snapshot.isPresent()
                && snapshot.get().state() == TaskState.DELAYED) {
            return Optional.of(TaskSnapshot.unheld(snapshot.get().task(), TaskState.PENDING));
        }
        return snapshot;
    }

    // ---------------------------------------------------------------- delegated unchanged

    @Override
    public QueueName queue() {
        return delegate.queue();
    }

    @Override
    public List<PublishReceipt> publish(List<NewTask> tasks) {
        return delegate.publish(tasks);
    }

    @Override
    public Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids) {
        return delegate.ack(consumer, ids);
    }

    @Override
    public Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason) {
        return delegate.fail(consumer, ids, reason);
    }

    @Override
    public Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids) {
        return delegate.release(consumer, ids);
    }

    @Override
    public void blockPartition(Partition partition, Duration duration) {
        delegate.blockPartition(partition, duration);
    }

    @Override
    public void unblockPartition(Partition partition) {
        delegate.unblockPartition(partition);
    }

    @Override
    public Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress) {
        return delegate.heartbeat(consumer, ttl, progress);
    }

    @Override
    public Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension) {
        return delegate.extendLease(consumer, ids, extension);
    }

    @Override
    public ReclaimReport reclaim() {
        return delegate.reclaim();
    }

    @Override
    public Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results) {
        return delegate.complete(consumer, results);
    }

    @Override
    public long expireCompleted() {
        return delegate.expireCompleted();
    }

    @Override
    public long trimDeadLetters() {
        return delegate.trimDeadLetters();
    }

    @Override
    public Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids) {
        return delegate.cancel(ids);
    }

    @Override
    public DeadLetterPage deadLetters(int offset, int limit) {
        return delegate.deadLetters(offset, limit);
    }

    @Override
    public Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids) {
        return delegate.redrive(ids);
    }

    @Override
    public long redriveAll() {
        return delegate.redriveAll();
    }

    @Override
    public long purgeDeadLetters(Collection<TaskId> ids) {
        return delegate.purgeDeadLetters(ids);
    }

    @Override
    public long purgeAllDeadLetters() {
        return delegate.purgeAllDeadLetters();
    }

    @Override
    public QueueStats stats() {
        return delegate.stats();
    }

    @Override
    public QueueInspection inspect(int limit) {
        return delegate.inspect(limit);
    }

    @Override
    public void pause() {
        delegate.pause();
    }

    @Override
    public void resume() {
        delegate.resume();
    }

    @Override
    public QueueSettings settings() {
        return delegate.settings();
    }

    @Override
    public void configure(QueueSettings settings) {
        delegate.configure(settings);
    }

    @Override
    public ScheduleFiring fireDueSchedules() {
        return delegate.fireDueSchedules();
    }

    @Override
    public boolean putSchedule(Schedule schedule) {
        return delegate.putSchedule(schedule);
    }

    @Override
    public boolean removeSchedule(String id) {
        return delegate.removeSchedule(id);
    }

    @Override
    public java.util.List<ScheduleEntry> schedules() {
        return delegate.schedules();
    }

    @Override
    public Optional<GroupName> group() {
        return delegate.group();
    }

    @Override
    public boolean createGroup(GroupName group) {
        return delegate.createGroup(group);
    }

    @Override
    public boolean createGroup(GroupName group, GroupName backlogOf) {
        return delegate.createGroup(group, backlogOf);
    }

    @Override
    public List<GroupName> groups() {
        return delegate.groups();
    }

    @Override
    public boolean deleteGroup(GroupName group) {
        return delegate.deleteGroup(group);
    }

    @Override
    public PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        return delegate.partitionTasks(partition, offset, limit);
    }

    @Override
    public TaskPage delayedTasks(int offset, int limit) {
        return delegate.delayedTasks(offset, limit);
    }

    @Override
    public InFlightPage inFlightTasks(String cursor, int limit) {
        return delegate.inFlightTasks(cursor, limit);
    }

    @Override
    public DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        return delegate.findDeadLetters(filter, cursor, limit);
    }

    @Override
    public TaskEventPage events(String cursor, int limit) {
        return delegate.events(cursor, limit);
    }

    @Override
    public CompletedPage completedTasks(int offset, int limit) {
        return delegate.completedTasks(offset, limit);
    }
}
