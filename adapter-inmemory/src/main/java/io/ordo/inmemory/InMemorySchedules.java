package io.ordo.inmemory;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Schedule;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueSchedules;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.schedules.ScheduleSlots;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A queue's schedules by id, each with its anchor and the last slot handled; firing publishes each due
 * slot's task through the store. Not thread-safe: the store calls it under its monitor, so a slot's
 * publish and the advance of its last slot happen together.
 */
final class InMemorySchedules {
    private final TreeMap<String, ScheduleEntry> entries = new TreeMap<>();

    /** Creates or replaces; true when created. The anchor is the start, else the old anchor, else now. */
    boolean put(Schedule schedule, long now) {
        ScheduleEntry old = entries.get(schedule.id());
        if (old == null && entries.size() >= QueueSchedules.MAX_SCHEDULES) {
            throw new InvalidInputException("schedule",
                    "a queue keeps at most " + QueueSchedules.MAX_SCHEDULES + " schedules");
        }
        long anchor = schedule.start() != null ? schedule.start().toEpochMilli()
                : old != null ? old.anchorMillis() : now;
        long last = old == null ? anchor - 1 : Math.max(old.lastSlotMillis(), anchor - 1);
        entries.put(schedule.id(), new ScheduleEntry(schedule, anchor, last));
        return old == null;
    }

    boolean remove(String id) {
        return entries.remove(id) != null;
    }

    List<ScheduleEntry> list() {
        return List.copyOf(entries.values());
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Publishes every schedule's due slots (a template over the payload limit waits until it or the limit changes). */
    ScheduleFiring fire(long now, int maxPayloadBytes, Function<List<NewTask>, List<PublishReceipt>> publish) {
        ScheduleFiring firing = ScheduleFiring.NONE;
        for (ScheduleEntry entry : List.copyOf(entries.values())) {
            Optional<ScheduleSlots.Due> due = ScheduleSlots.due(entry.schedule(), entry.anchorMillis(),
                    entry.lastSlotMillis(), now);
            if (due.isEmpty() || entry.schedule().payload().length > maxPayloadBytes) {
                continue;
            }
            int created = 0;
            if (!due.get().slots().isEmpty()) {
                List<NewTask> tasks = due.get().slots().stream().map(entry.schedule()::taskOf).toList();
                created = (int) publish.apply(tasks).stream().filter(r -> r.outcome() == PublishOutcome.CREATED).count();
            }
            entries.put(entry.schedule().id(), new ScheduleEntry(entry.schedule(), entry.anchorMillis(),
                    due.get().newLast()));
            firing = firing.plus(ScheduleFiring.ofOne(created, due.get().missed()));
        }
        return firing;
    }
}
