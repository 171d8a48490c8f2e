package io.ordo.sharding;

import io.ordo.domain.Partition;
import io.ordo.domain.Schedule;
import io.ordo.domain.Validate;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A sharded queue's schedules ({@link io.ordo.ports.QueueSchedules}) over the queue's own shards; the stores of
 * its groups share the queue's (docs/groups.md). A schedule lives on the shard of its task's partition, so its
 * slots' tasks are published where the partition lives; put on a partition of another shard, it leaves its old
 * shard (and its slots start anew).
 */
final class ShardedSchedules {
    private final List<TaskStore> shards;
    private final ToIntFunction<Partition> shardOf;

    ShardedSchedules(List<TaskStore> shards, ToIntFunction<Partition> shardOf) {
        this.shards = shards;
        this.shardOf = shardOf;
    }

    ScheduleFiring fireDue() {
        ScheduleFiring firing = ScheduleFiring.NONE;
        for (TaskStore shard : shards) {
            firing = firing.plus(shard.fireDueSchedules());
        }
        return firing;
    }

    boolean put(Schedule schedule) {
        Validate.notNull("schedule", schedule);
        int home = shardOf.applyAsInt(schedule.partition());
        boolean elsewhere = false;
        for (int i = 0; i < shards.size(); i++) {
            if (i != home && shards.get(i).schedules().stream().anyMatch(e -> e.schedule().id().equals(schedule.id()))) {
                elsewhere = true;
            }
        }
        boolean created = shards.get(home).putSchedule(schedule);
        if (elsewhere) {
            for (int i = 0; i < shards.size(); i++) {
                if (i != home) {
                    shards.get(i).removeSchedule(schedule.id());
                }
            }
        }
        return created && !elsewhere;
    }

    boolean remove(String id) {
        boolean removed = false;
        for (TaskStore shard : shards) {
            removed |= shard.removeSchedule(id);
        }
        return removed;
    }

    List<ScheduleEntry> list() {
        List<ScheduleEntry> all = new ArrayList<>();
        shards.forEach(shard -> all.addAll(shard.schedules()));
        all.sort(Comparator.comparing(entry -> entry.schedule().id()));
        return all;
    }
}
