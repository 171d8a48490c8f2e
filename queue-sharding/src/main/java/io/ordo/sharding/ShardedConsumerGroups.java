package io.ordo.sharding;

import io.ordo.domain.GroupName;
import io.ordo.domain.Validate;
import io.ordo.ports.TaskStore;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A sharded queue's consumer groups ({@link io.ordo.ports.ConsumerGroups}, docs/groups.md): a group is the group
 * of that name on every shard, so each call goes to the queue's shards one after the other; the stores of its
 * groups share the queue's.
 */
final class ShardedConsumerGroups {
    private final List<TaskStore> shards;

    ShardedConsumerGroups(List<TaskStore> shards) {
        this.shards = shards;
    }

    /**
     * On every shard, in turn: true when any shard created it (a shard that had it already, from a create
     * cut short, keeps it). Refused naming {@code group} when the queue has the most groups it may: the
     * first shard refuses before any is written, as the shards hold the same groups.
     */
    boolean create(GroupName group) {
        Validate.notNull("group", group);
        return onEveryShard(shard -> shard.createGroup(group));
    }

    /** Each shard's group gets that shard's backlog of the other group. */
    boolean create(GroupName group, GroupName backlogOf) {
        Validate.notNull("group", group);
        Validate.notNull("backlogOf", backlogOf);
        return onEveryShard(shard -> shard.createGroup(group, backlogOf));
    }

    /** The groups of every shard, by name (each shard has the same ones but while a create or delete runs). */
    List<GroupName> list() {
        Set<GroupName> all = new TreeSet<>(Comparator.comparing(GroupName::value));
        shards.forEach(shard -> all.addAll(shard.groups()));
        return List.copyOf(all);
    }

    /** On every shard, in turn: true when any shard had it. */
    boolean delete(GroupName group) {
        Validate.notNull("group", group);
        return onEveryShard(shard -> shard.deleteGroup(group));
    }

    /** The call on every shard of the queue, in turn: true when it was true on any. */
    private boolean onEveryShard(Predicate<TaskStore> call) {
        boolean any = false;
        for (TaskStore shard : shards) {
            any |= call.test(shard);
        }
        return any;
    }
}
