package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.tck.WakeUpKit;

class InMemoryWakeUpTest extends WakeUpKit {
    @Override
    protected TaskStore createStore(QueueName queue) {
        return new InMemoryTaskStoreFactory(Clock.system()).forQueue(queue);
    }
}
