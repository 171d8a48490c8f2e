package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.NewTask;
import io.ordo.domain.Schedule;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskStore;
import io.ordo.simulation.ModelTask.State;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static io.ordo.simulation.InvariantViolation.fail;

/**
 * Schedules (docs/semantics.md, "Schedules"): put, replace and remove keep the anchor and last slot the
 * rules give; a fire publishes the task of exactly the slots due by the misfire policy (one task per slot,
 * none before its time), once however many firers call, and the schedules read back as the model has them.
 *
 * <p>Slots are worked out here, for intervals by arithmetic and for cron by {@link CronSlots}, not by the
 * stores' cron library. One reading is fixed where the rules leave the order open: a fire handles the
 * schedules in id order, each one's slots oldest first, which sets the order of their tasks' seqs.
 */
final class ScheduleInvariants {
    /** How many of the due slots a misfire policy drops are looked for when a fire created too many tasks. */
    private static final int DROPPED_PROBES = 3;

    private final ViewsModel model;
    /** The stores of the queue's views: a fired slot's task is looked for in a view it reached. */
    private final Function<Optional<GroupName>, TaskStore> stores;

    ScheduleInvariants(ViewsModel model, Function<Optional<GroupName>, TaskStore> stores) {
        this.model = model;
        this.stores = stores;
    }

    void onPut(Schedule schedule, boolean created, long now) {
        ScheduleEntry old = model.schedules.get(schedule.id());
        if (created != (old == null)) {
            fail(Invariant.OUTCOMES, "putSchedule(%s) answered created=%s, but the schedule %s", schedule.id(),
                    created, old == null ? "did not exist" : "existed");
        }
        model.schedules.put(schedule.id(), placed(schedule, old, now));
    }

    /**
     * A schedule put at {@code now} over {@code old} (null when new): its anchor is its start, else the old
     * anchor, else now; a replaced one keeps its last slot, or {@code start - 1} if later.
     */
    static ScheduleEntry placed(Schedule schedule, ScheduleEntry old, long now) {
        long anchor = schedule.start() != null ? schedule.start().toEpochMilli()
                : old != null ? old.anchorMillis() : now;
        long last = old == null ? anchor - 1 : Math.max(old.lastSlotMillis(), anchor - 1);
        return new ScheduleEntry(schedule, anchor, last);
    }

    void onRemove(String id, boolean existed) {
        boolean expected = model.schedules.remove(id) != null;
        if (existed != expected) {
            fail(Invariant.OUTCOMES, "removeSchedule(%s) answered %s, expected %s", id, existed, expected);
        }
    }

    /** Checks one {@code fireDueSchedules} against the model and returns the ids of the tasks it created. */
    List<TaskId> onFire(ScheduleFiring firing, long now) {
        model.beginPublish();
        // the slots' tasks are published, so they reach every group (or the own view while there is none)
        Optional<GroupName> target = model.publishTargets().get(0);
        TaskStore store = stores.apply(target);
        int handled = 0;
        int missed = 0;
        List<Long> slots = new ArrayList<>();
        List<NewTask> publish = new ArrayList<>();
        Map<TaskId, String> wrongIfCreated = new LinkedHashMap<>();
        for (ScheduleEntry entry : List.copyOf(model.schedules.values())) {
            Schedule schedule = entry.schedule();
            long next = nextSlot(entry, now);
            if (next >= 0) {
                wrongIfCreated.put(schedule.taskIdOf(next), Invariant.NOT_BEFORE_ITS_TIME);
            }
            if (entry.lastSlotMillis() >= entry.anchorMillis()) {
                wrongIfCreated.put(schedule.taskIdOf(entry.lastSlotMillis()), Invariant.ONE_TASK_PER_SLOT);
            }
            long limit = schedule.end() == null ? now : Math.min(now, schedule.end().toEpochMilli() - 1);
            long after = Math.max(entry.lastSlotMillis(), entry.anchorMillis() - 1);
            MisfirePolicy misfire = schedule.misfire();
            int wanted = misfire.kind() == MisfirePolicy.Kind.CATCH_UP ? misfire.maxRuns() : 1;
            List<Long> latestFirst = limit <= after ? List.of() : slots(entry, after, limit, wanted + DROPPED_PROBES);
            if (latestFirst.isEmpty()) {
                continue;
            }
            handled++;
            long latest = latestFirst.get(0);
            boolean skipped = misfire.kind() == MisfirePolicy.Kind.SKIP && now - latest > MisfirePolicy.GRACE.toMillis();
            List<Long> due = new ArrayList<>(skipped ? List.of() : latestFirst.subList(0, Math.min(wanted, latestFirst.size())));
            for (long dropped : latestFirst) {
                if (!due.contains(dropped)) {
                    wrongIfCreated.put(schedule.taskIdOf(dropped), Invariant.MISFIRE);
                }
            }
            if (latestFirst.size() > due.size()) {
                missed++; // due slots let pass (the probes reach beyond what the policy publishes)
            }
            Collections.reverse(due);
            for (long slot : due) {
                slots.add(slot);
                publish.add(schedule.taskOf(slot));
            }
            model.schedules.put(schedule.id(), new ScheduleEntry(schedule, entry.anchorMillis(), latest));
        }
        List<TaskId> created = new ArrayList<>();
        for (int i = 0; i < publish.size(); i++) {
            NewTask task = publish.get(i);
            PublishOutcome expected = model.expectedPublish(task.id(), now);
            boolean found = expected != PublishOutcome.DUPLICATE && store.get(task.id()).isPresent();
            if (expected == PublishOutcome.CREATED && !found) {
                fail(now - slots.get(i) > MisfirePolicy.GRACE.toMillis() ? Invariant.MISFIRE : Invariant.ONE_TASK_PER_SLOT,
                        "the slot %s was due at %s, but its task %s was not published", Instant.ofEpochMilli(slots.get(i)),
                        Instant.ofEpochMilli(now), task.id());
            }
            if (expected == PublishOutcome.CREATED || expected == null && found) {
                model.create(task, now);
                created.add(task.id());
            }
        }
        if (firing.schedulesFired() != handled || firing.tasksCreated() != created.size()) {
            explainWrongFiring(wrongIfCreated, model.view(target), store, now);
            fail(Invariant.ONE_TASK_PER_SLOT, "fireDueSchedules at %s handled %d schedules and created %d tasks, "
                    + "expected %d and %d: %s", Instant.ofEpochMilli(now), firing.schedulesFired(),
                    firing.tasksCreated(), handled, created.size(), created);
        }
        if (firing.schedulesMissed() != missed) {
            fail(Invariant.MISFIRE, "fireDueSchedules at %s reported %d schedules that let due slots pass, expected %d",
                    Instant.ofEpochMilli(now), firing.schedulesMissed(), missed);
        }
        model.endPublish();
        return created;
    }

    /** Names the rule a fire that did more or less than due broke, where a task it made or a last slot shows it. */
    private void explainWrongFiring(Map<TaskId, String> wrongIfCreated, QueueModel view, TaskStore store, long now) {
        wrongIfCreated.forEach((id, invariant) -> {
            ModelTask known = view.tasks.get(id);
            if ((known == null || known.state == State.GONE) && store.get(id).isPresent()) {
                fail(invariant, "fireDueSchedules at %s published %s, which it must not", Instant.ofEpochMilli(now), id);
            }
        });
        checkListed(store.schedules(), now);
    }

    /** The schedules as the store lists them against the model's. */
    void checkListed(List<ScheduleEntry> listed, long now) {
        List<String> ids = listed.stream().map(entry -> entry.schedule().id()).toList();
        if (!ids.equals(List.copyOf(model.schedules.keySet()))) {
            fail(Invariant.OUTCOMES, "schedules() lists %s, expected %s (by id)", ids, model.schedules.keySet());
        }
        for (ScheduleEntry entry : listed) {
            ScheduleEntry expected = model.schedules.get(entry.schedule().id());
            if (!entry.schedule().equals(expected.schedule()) || entry.anchorMillis() != expected.anchorMillis()) {
                fail(Invariant.OUTCOMES, "schedules() shows %s anchored at %d, expected %s anchored at %d",
                        entry.schedule(), entry.anchorMillis(), expected.schedule(), expected.anchorMillis());
            }
            if (entry.lastSlotMillis() != expected.lastSlotMillis()) {
                fail(entry.lastSlotMillis() > now ? Invariant.NOT_BEFORE_ITS_TIME : Invariant.ONE_TASK_PER_SLOT,
                        "schedule %s has last slot %d, expected %d (now %d)", entry.schedule().id(),
                        entry.lastSlotMillis(), expected.lastSlotMillis(), now);
            }
        }
    }

    /** The slots of a schedule in {@code (after, limit]}, latest first, at most {@code max}. */
    private static List<Long> slots(ScheduleEntry entry, long after, long limit, int max) {
        Schedule schedule = entry.schedule();
        if (schedule.cron() != null) {
            return new CronSlots(schedule.cron(), schedule.zone()).latest(after, limit, max);
        }
        long every = schedule.every().toMillis();
        long anchor = entry.anchorMillis();
        List<Long> slots = new ArrayList<>();
        for (long k = Math.floorDiv(limit - anchor, every); k >= 0 && anchor + k * every > after && slots.size() < max; k--) {
            slots.add(anchor + k * every);
        }
        return slots;
    }

    /** The first slot after {@code now} (and at or after the anchor, before the end), or -1. */
    private static long nextSlot(ScheduleEntry entry, long now) {
        Schedule schedule = entry.schedule();
        long from = Math.max(now, entry.anchorMillis() - 1);
        long next;
        if (schedule.cron() != null) {
            next = new CronSlots(schedule.cron(), schedule.zone()).next(from);
        } else {
            long every = schedule.every().toMillis();
            next = entry.anchorMillis() + (Math.floorDiv(from - entry.anchorMillis(), every) + 1) * every;
        }
        return next < 0 || schedule.end() != null && next >= schedule.end().toEpochMilli() ? -1 : next;
    }
}
