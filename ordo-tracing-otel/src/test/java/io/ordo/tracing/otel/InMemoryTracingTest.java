package io.ordo.tracing.otel;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

import java.time.Duration;

/** Tracing on the in-memory store, on a virtual clock. */
class InMemoryTracingTest extends TracedQueueContract {
    private final VirtualClock clock = new VirtualClock();

    @Override
    protected TaskStore newStore(QueueName queue) {
        return new InMemoryTaskStoreFactory(clock).forQueue(queue);
    }

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected void passTime(Duration duration) {
        clock.advance(duration);
    }
}
