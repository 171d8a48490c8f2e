package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.tck.WakeUpKit;
import org.junit.jupiter.api.Tag;

/** A waiting consume on a sharded queue (four in-memory shards) wakes for work on any shard. */
@Tag("full")
class ShardedWakeUpTest extends WakeUpKit {
    @Override
    protected TaskStore createStore(QueueName queue) {
        InMemoryTaskStoreFactory shards = new InMemoryTaskStoreFactory(Clock.system());
        return ShardedTaskStore.create(queue, ShardedTaskStoreContractTest.SHARDS,
                (name, index) -> shards.forQueue(QueueName.of(name + ".shard-" + index)));
    }
}
