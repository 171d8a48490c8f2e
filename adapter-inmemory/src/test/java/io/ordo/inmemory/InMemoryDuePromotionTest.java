package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.DuePromotionKit;

class InMemoryDuePromotionTest extends DuePromotionKit {
    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return new InMemoryTaskStoreFactory(clock).forQueue(queue);
    }
}
