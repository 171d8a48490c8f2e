package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.ClosedStoreKit;

/** A sharded queue whose backend factory was closed fails as its shards do. */
class ShardedClosedStoreTest extends ClosedStoreKit {
    @Override
    protected TaskStoreFactory openFactory(VirtualClock clock) {
        InMemoryTaskStoreFactory shards = new InMemoryTaskStoreFactory(clock);
        return new ShardedTaskStoreFactory(shards,
                (name, index) -> shards.forQueue(QueueName.of(name + ".shard-" + index)),
                ShardedTaskStoreContractTest.SHARDS);
    }
}
