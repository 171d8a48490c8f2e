package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TextKeptExactlyKit;

/** Text is kept exactly on a sharded queue too (four in-memory shards; routing hashes the code's UTF-8). */
class ShardedTextKeptExactlyTest extends TextKeptExactlyKit {
    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        InMemoryTaskStoreFactory shards = new InMemoryTaskStoreFactory(clock);
        return ShardedTaskStore.create(queue, ShardedTaskStoreContractTest.SHARDS,
                (name, index) -> shards.forQueue(QueueName.of(name + ".shard-" + index)));
    }
}
