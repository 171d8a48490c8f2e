package io.ordo.sharding;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TaskStoreCompatibilityKit;
import io.ordo.tck.contract.StoreCharacteristic;
import io.ordo.tck.contract.StoreCharacteristics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The contract a sharded queue keeps, on four in-memory shards: the kit unchanged, minus the tests that
 * rely on one queue-wide order or id space. Each such promise holds within a shard only, so the store
 * declares none of the queue-wide {@link StoreCharacteristic}s.
 */
@StoreCharacteristics({})
class ShardedTaskStoreContractTest extends TaskStoreCompatibilityKit {
    static final int SHARDS = 4;

    /** One backend per clock (a test's): a queue's shards and their groups' live on it. */
    private final Map<VirtualClock, InMemoryTaskStoreFactory> backends = new ConcurrentHashMap<>();

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return sharded(queue, clock).build();
    }

    @Override
    protected TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock) {
        return sharded(queue, clock).build().forGroup(group);
    }

    private ShardedTaskStore.Builder sharded(QueueName queue, VirtualClock clock) {
        InMemoryTaskStoreFactory shards = backends.computeIfAbsent(clock, InMemoryTaskStoreFactory::new);
        return ShardedTaskStore.builder(queue, Integer.getInteger("ordo.shards", SHARDS),
                        (name, index) -> shards.forQueue(shardName(name, index)))
                .groups((name, index, group) -> shards.forGroup(shardName(name, index), group));
    }

    private static QueueName shardName(QueueName queue, int index) {
        return QueueName.of(queue + ".shard-" + index);
    }
}
