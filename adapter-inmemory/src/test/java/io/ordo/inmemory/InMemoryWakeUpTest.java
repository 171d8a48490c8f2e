package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.tck.WakeUpKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class InMemoryWakeUpTest extends WakeUpKit {
    @Override
    protected TaskStore createStore(QueueName queue) {
        return new InMemoryTaskStoreFactory(Clock.system()).forQueue(queue);
    }
}
