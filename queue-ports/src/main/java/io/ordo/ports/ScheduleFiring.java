package io.ordo.ports;

/**
 * What one {@link QueueMaintenance#fireDueSchedules} did.
 *
 * @param schedulesFired   the schedules whose due slots this call handled (a schedule another firer
 *                         handled first is not counted)
 * @param tasksCreated     the slot tasks it created
 * @param schedulesMissed  the schedules among them that let due slots pass unpublished, as their misfire
 *                         policy says (slots that fell due while no worker fired them)
 */
public record ScheduleFiring(int schedulesFired, int tasksCreated, int schedulesMissed) {
    public static final ScheduleFiring NONE = new ScheduleFiring(0, 0, 0);

    /** One schedule's due slots handled: {@code created} tasks, and whether slots went unpublished. */
    public static ScheduleFiring ofOne(int created, boolean missed) {
        return new ScheduleFiring(1, created, missed ? 1 : 0);
    }

    public ScheduleFiring plus(ScheduleFiring other) {
        return new ScheduleFiring(schedulesFired + other.schedulesFired, tasksCreated + other.tasksCreated,
                schedulesMissed + other.schedulesMissed);
    }
}
