package io.ordo.ports;

/**
 * What one {@link QueueMaintenance#fireDueSchedules} did.
 *
 * @param schedulesFired the schedules whose due slots this call handled (a schedule another firer
 *                       handled first is not counted)
 * @param tasksCreated   the slot tasks it created
 */
public record ScheduleFiring(int schedulesFired, int tasksCreated) {
    public static final ScheduleFiring NONE = new ScheduleFiring(0, 0);

    public ScheduleFiring plus(ScheduleFiring other) {
        return new ScheduleFiring(schedulesFired + other.schedulesFired, tasksCreated + other.tasksCreated);
    }
}
