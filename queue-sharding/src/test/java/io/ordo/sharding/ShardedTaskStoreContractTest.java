package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TaskStoreCompatibilityKit;
import io.ordo.tck.contract.StoreCharacteristic;
import io.ordo.tck.contract.StoreCharacteristics;

/**
 * The contract a sharded queue keeps, on four in-memory shards: the kit unchanged, minus the tests that
 * rely on one queue-wide order or id space. Each such promise holds within a shard only, so the store
 * declares none of the queue-wide {@link StoreCharacteristic}s.
 */
@StoreCharacteristics({})
class ShardedTaskStoreContractTest extends TaskStoreCompatibilityKit {
    static final int SHARDS = 4;

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        InMemoryTaskStoreFactory shards = new InMemoryTaskStoreFactory(clock);
        return ShardedTaskStore.create(queue, Integer.getInteger("ordo.shards", SHARDS),
                (name, index) -> shards.forQueue(QueueName.of(name + ".shard-" + index)));
    }
}
