package io.ordo.simulation;

import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.NewTask;
import io.ordo.domain.Schedule;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.schedules.ScheduleSlots;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/** The simple store's schedules, as docs/semantics.md states them, with the slots from the stores' ScheduleSlots. */
final class SimpleSchedules {

    /** Deliberate deviations, to prove the checker notices. */
    enum Fault {
        /** Fires the slots of the next half minute too. */
        FIRES_EARLY,
        /** Publishes every due slot whatever the misfire policy. */
        IGNORES_MISFIRE,
        /** Never moves the last slot on, so the next firer handles the same slots again. */
        FIRES_SLOTS_AGAIN
    }

    private final TreeMap<String, ScheduleEntry> entries = new TreeMap<>();
    private final Fault fault;

    SimpleSchedules(Fault fault) {
        this.fault = fault;
    }

    boolean put(Schedule schedule, long now) {
        ScheduleSlots.check(schedule);
        // the model's rule for a put: only firing is the simple store's own, where the faults are
        return entries.put(schedule.id(), ScheduleInvariants.placed(schedule, entries.get(schedule.id()), now)) == null;
    }

    boolean remove(String id) {
        return entries.remove(id) != null;
    }

    List<ScheduleEntry> list() {
        return List.copyOf(entries.values());
    }

    ScheduleFiring fire(long now, Function<List<NewTask>, List<PublishReceipt>> publish) {
        ScheduleFiring firing = ScheduleFiring.NONE;
        for (ScheduleEntry entry : List.copyOf(entries.values())) {
            Schedule schedule = fault == Fault.IGNORES_MISFIRE
                    ? entry.schedule().toBuilder().misfire(MisfirePolicy.catchUp(MisfirePolicy.MAX_CATCH_UP)).build()
                    : entry.schedule();
            long at = fault == Fault.FIRES_EARLY ? now + 30_000 : now;
            Optional<ScheduleSlots.Due> due = ScheduleSlots.due(schedule, entry.anchorMillis(), entry.lastSlotMillis(), at);
            if (due.isEmpty()) {
                continue;
            }
            List<NewTask> tasks = due.get().slots().stream().map(schedule::taskOf).toList();
            int created = tasks.isEmpty() ? 0
                    : (int) publish.apply(tasks).stream().filter(r -> r.outcome() == PublishOutcome.CREATED).count();
            if (fault != Fault.FIRES_SLOTS_AGAIN) {
                entries.put(schedule.id(), new ScheduleEntry(entry.schedule(), entry.anchorMillis(), due.get().newLast()));
            }
            firing = firing.plus(ScheduleFiring.ofOne(created, due.get().missed()));
        }
        return firing;
    }
}
