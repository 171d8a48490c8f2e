package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Stores that live in this process; the same queue name gives the same store. */
public final class InMemoryTaskStoreFactory implements TaskStoreFactory {
    private final Clock clock;
    private final ConcurrentMap<QueueName, InMemoryTaskStore> stores = new ConcurrentHashMap<>();

    public InMemoryTaskStoreFactory(Clock clock) {
        this.clock = clock;
    }

    @Override
    public TaskStore forQueue(QueueName queue) {
        return stores.computeIfAbsent(queue, name -> new InMemoryTaskStore(name, clock));
    }

    @Override
    public void close() {
        stores.clear();
    }
}
