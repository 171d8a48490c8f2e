package io.ordo.sharding;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;

/**
 * Where the consumer groups of a sharded queue's shards live: the store of {@code group} of shard
 * {@code index} of {@code queue}, on the same backend as {@link ShardSource} gives that shard (docs/groups.md).
 * A sharded queue's group is the group of that name on every shard. On Redis,
 * {@code (queue, index, group) -> factory.forShardGroup(queue, index, group, clock)}.
 */
@FunctionalInterface
public interface GroupShardSource {
    /** The store of one group of one shard; called once per shard when a group's sharded store is made. */
    TaskStore shard(QueueName queue, int index, GroupName group);
}
