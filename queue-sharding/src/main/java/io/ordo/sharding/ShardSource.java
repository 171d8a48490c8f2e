package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;

/**
 * Where the shards of a sharded queue live: shard {@code index} of {@code queue} as a store of its own,
 * apart from every other shard and queue. On Redis, {@code RedisTaskStoreFactory::forShard} (keys under
 * hash tag {@code {<queue>#<index>}}, so each shard is a cluster slot of its own).
 */
@FunctionalInterface
public interface ShardSource {
    /** The store of one shard; called once per shard when a sharded store is made. */
    TaskStore shard(QueueName queue, int index);
}
