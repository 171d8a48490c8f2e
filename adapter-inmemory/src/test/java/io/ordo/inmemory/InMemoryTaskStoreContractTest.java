package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TaskStoreCompatibilityKit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The in-memory simulator passes the same contract as every other backend. */
class InMemoryTaskStoreContractTest extends TaskStoreCompatibilityKit {
    /** One backend per clock (a test's): its queues' and groups' stores share it. */
    private final Map<VirtualClock, InMemoryTaskStoreFactory> factories = new ConcurrentHashMap<>();

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return factory(clock).forQueue(queue);
    }

    @Override
    protected TaskStore createGroupStore(QueueName queue, GroupName group, VirtualClock clock) {
        return factory(clock).forGroup(queue, group);
    }

    private InMemoryTaskStoreFactory factory(VirtualClock clock) {
        return factories.computeIfAbsent(clock, InMemoryTaskStoreFactory::new);
    }
}
