package io.ordo.ports;

import io.ordo.domain.Schedule;

import java.util.List;

/**
 * The queue's recurring schedules, kept with the queue so every worker fires them and none leads
 * (docs/semantics.md, "Schedules"; firing is {@link QueueMaintenance#fireDueSchedules}). Used by
 * {@code ordo schedule} (see {@link TaskStore} for errors).
 */
public interface QueueSchedules extends QueueBound {
    /** A queue keeps at most this many schedules. */
    int MAX_SCHEDULES = 1000;

    /**
     * Creates the schedule or replaces the one with its id; true when created. A new schedule's slots
     * start at its {@code start}, or now by the store's clock; a replaced one keeps the slots already
     * handled (none of them fires again) unless its new {@code start} lies after them. Refused
     * ({@code cron}) when the cron expression does not parse, ({@code schedule}) when the queue holds
     * {@link #MAX_SCHEDULES} others.
     */
    boolean putSchedule(Schedule schedule);

    /** Deletes the schedule; true when it existed. Tasks it published stay. */
    boolean removeSchedule(String id);

    /** Every schedule of the queue, by id, with the slots handled so far. */
    List<ScheduleEntry> schedules();
}
