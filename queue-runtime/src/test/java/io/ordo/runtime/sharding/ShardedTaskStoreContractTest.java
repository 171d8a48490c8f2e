package io.ordo.runtime.sharding;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TaskStoreCompatibilityKit;

class ShardedTaskStoreContractTest extends TaskStoreCompatibilityKit {
    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        InMemoryTaskStoreFactory shards = new InMemoryTaskStoreFactory(clock);
        return ShardedTaskStore.create(queue, Integer.getInteger("ordo.shards", 4), (name, index) -> shards.forQueue(QueueName.of(name + "_shard-" + index)));
    }
}
