package io.ordo.redis.testing;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.sharding.ShardedTaskStore;
import io.ordo.tck.contract.StoreCharacteristic;
import io.ordo.tck.contract.StoreCharacteristics;

/**
 * The contract a sharded queue keeps, on a three-master cluster: every queue of the kit is sharded
 * over {@value #SHARDS} shards ({@code {tck-…#0}}..), which the slots spread over the masters. The kit
 * runs unchanged, minus the tests that rely on one queue-wide order or id space: the store declares none
 * of the queue-wide {@link StoreCharacteristic}s.
 */
@StoreCharacteristics({})
public abstract class ShardedClusterContractKit extends RedisDeploymentContractKit {
    public static final int SHARDS = 3;

    protected ShardedClusterContractKit(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return sharded(queue, clock);
    }

    /** The group of that name on every shard (docs/groups.md). */
    @Override
    protected TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock) {
        return sharded(queue, clock).forGroup(group);
    }

    private ShardedTaskStore sharded(QueueName queue, VirtualClock clock) {
        RedisTaskStoreFactory factory = factory();
        return ShardedTaskStore.builder(queue, SHARDS, (name, index) -> factory.forShard(name, index, clock))
                .groups((name, index, group) -> factory.forShardGroup(name, index, group, clock))
                .build();
    }
}
