package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.Schedule;
import io.ordo.ports.ConsumerGroups;
import io.ordo.ports.QueueMaintenance;
import io.ordo.ports.QueueSchedules;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;

import java.util.List;

/**
 * The calls that are the queue's whichever of its views a store serves (its own or a group's): the schedules
 * (firing them too) and the groups' administration, made on the queue's {@link QueueViews} (docs/groups.md).
 */
interface QueueLevelCalls extends QueueSchedules, QueueMaintenance, ConsumerGroups {
    /** The queue's views. */
    QueueViews views();

    @Override
    default boolean putSchedule(Schedule schedule) {
        return views().putSchedule(schedule);
    }

    @Override
    default boolean removeSchedule(String id) {
        return views().removeSchedule(id);
    }

    @Override
    default List<ScheduleEntry> schedules() {
        return views().schedules();
    }

    @Override
    default ScheduleFiring fireDueSchedules() {
        return views().fireDueSchedules();
    }

    @Override
    default boolean createGroup(GroupName name) {
        return views().createGroup(name);
    }

    @Override
    default boolean createGroup(GroupName name, GroupName backlogOf) {
        return views().createGroup(name, backlogOf);
    }

    @Override
    default List<GroupName> groups() {
        return views().groups();
    }

    @Override
    default boolean deleteGroup(GroupName name) {
        return views().deleteGroup(name);
    }
}
