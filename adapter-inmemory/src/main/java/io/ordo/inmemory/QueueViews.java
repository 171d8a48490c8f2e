package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.ConsumerGroups;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.StoreClosedException;
import io.ordo.schedules.ScheduleSlots;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * One queue's views (docs/groups.md): its own store and a store per consumer group, by name, and what
 * spans them: publishing (to every group, or to the own view while there is none, each task numbered by
 * the queue's one {@code seq}), creating and deleting groups, configuring every view, and the queue's
 * schedules. Each of those steps holds this object's
 * monitor; a publish then takes the monitor of every view, the own view's first and the groups' by name,
 * so it is one atomic step over all of them. No other step takes a view's monitor and then this one, nor
 * two views' monitors in another order, so the views cannot deadlock.
 */
final class QueueViews {
    private final QueueName queue;
    private final Clock clock;
    private final InMemoryTaskStore own;
    /** Guarded by this. */
    private final TreeMap<GroupName, InMemoryTaskStore> groups = new TreeMap<>(Comparator.comparing(GroupName::value));
    /** The queue's schedules; guarded by this. */
    private final InMemorySchedules schedules = new InMemorySchedules();
    /** The last task's seq: one counter numbers the queue's tasks in every view. Guarded by this. */
    private long lastSeq;
    /** Guarded by this. */
    private boolean closed;

    QueueViews(QueueName queue, Clock clock) {
        this.queue = queue;
        this.clock = clock;
        this.own = new InMemoryTaskStore(queue, clock, this, null, QueueSettings.DEFAULTS);
    }

    QueueName queue() {
        return queue;
    }

    /** The queue's own view ({@code forQueue}). */
    InMemoryTaskStore own() {
        return own;
    }

    /** The state of an existing group; refused naming {@code group} when the queue has none of that name. */
    synchronized InMemoryTaskStore group(GroupName name) {
        ensureOpen();
        InMemoryTaskStore group = groups.get(name);
        if (group == null) {
            throw noSuchGroup(queue, name);
        }
        return group;
    }

    static InvalidInputException noSuchGroup(QueueName queue, GroupName name) {
        return new InvalidInputException("group", "queue " + queue + " has no consumer group '" + name + "'");
    }

    // ---------------------------------------------------------------- publish

    /**
     * Validates the batch against the queue's own settings, then delivers each task to every group, or to
     * the own view while there is none; an id any view holds or remembers is a duplicate and written nowhere.
     */
    synchronized List<PublishReceipt> publish(List<NewTask> tasks) {
        ensureOpen();
        return holdingEveryView(() -> deliver(tasks));
    }

    private List<PublishReceipt> deliver(List<NewTask> tasks) {
        List<NewTask> batch = PublishRules.validate(tasks, own.settings());
        long now = clock.millis();
        Collection<InMemoryTaskStore> targets = groups.isEmpty() ? List.of(own) : groups.values();
        List<PublishReceipt> receipts = new ArrayList<>(batch.size());
        for (NewTask request : batch) {
            if (own.holds(request.id(), now) || groups.values().stream().anyMatch(g -> g.holds(request.id(), now))) {
                receipts.add(new PublishReceipt(request.id(), PublishOutcome.DUPLICATE));
                continue;
            }
            long seq = ++lastSeq;
            targets.forEach(target -> target.receive(request, seq, now));
            receipts.add(new PublishReceipt(request.id(), PublishOutcome.CREATED));
        }
        targets.forEach(InMemoryTaskStore::delivered);
        return receipts;
    }

    /** Runs the step holding the monitor of every view, in the one order: own view, then groups by name. */
    private <T> T holdingEveryView(Supplier<T> step) {
        List<InMemoryTaskStore> views = new ArrayList<>(groups.size() + 1);
        views.add(own);
        views.addAll(groups.values());
        return holding(views, 0, step);
    }

    private static <T> T holding(List<InMemoryTaskStore> views, int from, Supplier<T> step) {
        if (from == views.size()) {
            return step.get();
        }
        synchronized (views.get(from)) {
            return holding(views, from + 1, step);
        }
    }

    // ---------------------------------------------------------------- groups

    /** A new group starts empty, with the own view's settings; refused naming {@code group} past the most. */
    synchronized boolean createGroup(GroupName name) {
        ensureOpen();
        Validate.notNull("group", name);
        if (groups.containsKey(name)) {
            return false;
        }
        if (groups.size() >= ConsumerGroups.MAX_GROUPS) {
            throw new InvalidInputException("group", "queue " + queue + " has " + ConsumerGroups.MAX_GROUPS
                    + " consumer groups, the most it may have");
        }
        groups.put(name, new InMemoryTaskStore(queue, clock, this, name, own.settings()));
        return true;
    }

    /** A new group with the tasks waiting in another one, their attempts anew; every view held, as a publish. */
    synchronized boolean createGroup(GroupName name, GroupName backlogOf) {
        ensureOpen();
        Validate.notNull("group", name);
        Validate.notNull("backlogOf", backlogOf);
        InMemoryTaskStore source = groups.get(backlogOf);
        if (source == null || backlogOf.equals(name)) {
            throw new InvalidInputException("backlogOf", source == null
                    ? "queue " + queue + " has no consumer group " + backlogOf
                    : "must name another group than the one created");
        }
        if (!createGroup(name)) {
            return false;
        }
        InMemoryTaskStore created = groups.get(name);
        holdingEveryView(() -> {
            source.waitingTasks().forEach(task -> created.receiveCopy(task.anew()));
            created.delivered();
            return null;
        });
        return true;
    }

    synchronized List<GroupName> groups() {
        ensureOpen();
        return List.copyOf(groups.keySet());
    }

    /** Drops the group's state whole: its store refuses every later call (a group of that name is a new one). */
    synchronized boolean deleteGroup(GroupName name) {
        ensureOpen();
        Validate.notNull("group", name);
        InMemoryTaskStore removed = groups.get(name);
        if (removed == null) {
            return false;
        }
        holdingEveryView(() -> {
            removed.handRememberedIdsTo(own);
            return null;
        });
        groups.remove(name);
        removed.delete();
        return true;
    }

    /** The queue's own store's configure: the own view and every group. */
    synchronized void configure(QueueSettings settings) {
        ensureOpen();
        own.apply(settings);
        groups.values().forEach(group -> group.apply(settings));
    }

    // ---------------------------------------------------------------- schedules

    synchronized boolean putSchedule(Schedule schedule) {
        ensureOpen();
        ScheduleSlots.check(Validate.notNull("schedule", schedule));
        return schedules.put(schedule, clock.millis());
    }

    synchronized boolean removeSchedule(String id) {
        ensureOpen();
        Validate.text("id", id, Schedule.MAX_ID_LENGTH);
        return schedules.remove(id);
    }

    synchronized List<ScheduleEntry> schedules() {
        ensureOpen();
        return schedules.list();
    }

    /** A slot's task is published as any publish is, to every group: in the same step as its slot's advance. */
    synchronized ScheduleFiring fireDueSchedules() {
        ensureOpen();
        return schedules.fire(clock.millis(), own.settings().maxPayloadBytes(),
                tasks -> holdingEveryView(() -> deliver(tasks)));
    }

    // ---------------------------------------------------------------- the factory's

    /** Whether anything of the queue is kept: in its own view or a group, its groups, its schedules. */
    synchronized boolean holdsData() {
        return lastSeq > 0 || own.holdsData() || !groups.isEmpty() || !schedules.isEmpty();
    }

    synchronized void close() {
        closed = true;
        own.close();
        groups.values().forEach(InMemoryTaskStore::close);
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the store of queue " + queue + " was closed with its factory");
        }
    }
}
