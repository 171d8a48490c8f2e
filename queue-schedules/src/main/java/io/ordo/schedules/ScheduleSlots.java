package io.ordo.schedules;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Schedule;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The slots of a schedule, the same for every store (docs/semantics.md, "Schedules"): a store keeps a
 * schedule's anchor and last slot handled, asks here which slots are due at its clock's now, and
 * publishes them and advances the last slot in one atomic step guarded by the last slot it read.
 *
 * <p>Cron expressions are five-field Unix ones read in the schedule's zone by cron-utils, whose rules
 * also settle the daylight-saving hours: a wall time in a skipped hour does not occur (no slot); a wall
 * time in a repeated hour occurs twice, and both instants are slots.
 */
public final class ScheduleSlots {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private ScheduleSlots() {
    }

    /** Refuses a cron expression that does not parse, naming {@code cron}. */
    public static Schedule check(Schedule schedule) {
        if (schedule.cron() != null) {
            executionTime(schedule.cron());
        }
        return schedule;
    }

    /** Where a newly put schedule's slots start: its {@code start}, or {@code now}. */
    public static long anchorOf(Schedule schedule, long now) {
        return schedule.start() != null ? schedule.start().toEpochMilli() : now;
    }

    /**
     * What a schedule whose slots start at {@code anchor} and whose slots up to {@code last} are handled has
     * due at {@code now}: the slots to publish (ascending) and the new last slot; empty when no slot is due.
     */
    public static Optional<Due> due(Schedule schedule, long anchor, long last, long now) {
        long limit = schedule.end() == null ? now : Math.min(now, schedule.end().toEpochMilli() - 1);
        long after = Math.max(last, anchor - 1); // slots strictly after this
        if (limit <= after) {
            return Optional.empty();
        }
        MisfirePolicy misfire = schedule.misfire();
        int wanted = misfire.kind() == MisfirePolicy.Kind.CATCH_UP ? misfire.maxRuns() : 1;
        // one slot more than wanted: whether there is one tells if due slots go unpublished
        List<Long> latestFirst = schedule.cron() != null
                ? cronSlots(schedule, after, limit, wanted + 1)
                : intervalSlots(schedule, anchor, after, limit, wanted + 1);
        if (latestFirst.isEmpty()) {
            return Optional.empty();
        }
        long latest = latestFirst.get(0);
        List<Long> publish = new ArrayList<>(latestFirst.subList(0, Math.min(wanted, latestFirst.size())));
        if (misfire.kind() == MisfirePolicy.Kind.SKIP && now - latest > MisfirePolicy.GRACE.toMillis()) {
            publish.clear();
        }
        Collections.reverse(publish);
        return Optional.of(new Due(List.copyOf(publish), latest, latestFirst.size() > publish.size()));
    }

    /**
     * Slots due: the ones to publish, oldest first (possibly none: all skipped), the new last slot, and
     * whether due slots go unpublished ({@code missed}: the misfire policy lets them pass).
     */
    public record Due(List<Long> slots, long newLast, boolean missed) {
    }

    private static List<Long> intervalSlots(Schedule schedule, long anchor, long after, long limit, int wanted) {
        long every = schedule.every().toMillis();
        long latestK = Math.floorDiv(limit - anchor, every);
        long firstK = Math.floorDiv(after - anchor, every) + 1;
        List<Long> slots = new ArrayList<>();
        for (long k = latestK; k >= firstK && slots.size() < wanted; k--) {
            slots.add(anchor + k * every);
        }
        return slots;
    }

    private static List<Long> cronSlots(Schedule schedule, long after, long limit, int wanted) {
        ExecutionTime times = executionTime(schedule.cron());
        List<Long> slots = new ArrayList<>();
        ZonedDateTime before = Instant.ofEpochMilli(limit + 1).atZone(schedule.zone());
        while (slots.size() < wanted) {
            Optional<ZonedDateTime> previous = times.lastExecution(before);
            if (previous.isEmpty()) {
                break;
            }
            long slot = previous.get().toInstant().toEpochMilli();
            if (slot <= after || slot > limit) {
                break;
            }
            slots.add(slot);
            before = previous.get();
        }
        return slots;
    }

    private static ExecutionTime executionTime(String expression) {
        try {
            Cron cron = PARSER.parse(expression);
            cron.validate();
            return ExecutionTime.forCron(cron);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("cron", "is not a five-field cron expression (minute hour day-of-month"
                    + " month day-of-week): " + e.getMessage());
        }
    }
}
