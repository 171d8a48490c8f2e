package io.ordo.lettuce;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.testing.PerTestRedisStores;
import io.ordo.tck.TaskStoreCompatibilityKit;
import org.junit.jupiter.api.extension.RegisterExtension;

class LettuceTaskStoreContractTest extends TaskStoreCompatibilityKit {
    @RegisterExtension
    final PerTestRedisStores stores = new PerTestRedisStores(LettuceTaskStores::factory);

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return stores.create(queue, clock);
    }

    @Override
    protected TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock) {
        return stores.createGroup(queue, group, clock);
    }
}
