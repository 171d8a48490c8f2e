package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.TaskStoreCompatibilityKit;

/** The in-memory simulator passes the same contract as every other backend. */
class InMemoryTaskStoreContractTest extends TaskStoreCompatibilityKit {
    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return new InMemoryTaskStoreFactory(clock).forQueue(queue);
    }
}
