package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Stores that live in this process; the same queue name gives the same store. */
public final class InMemoryTaskStoreFactory implements TaskStoreFactory {
    private final Clock clock;
    private final ConcurrentMap<QueueName, InMemoryTaskStore> stores = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public InMemoryTaskStoreFactory(Clock clock) {
        this.clock = clock;
    }

    @Override
    public TaskStore forQueue(QueueName queue) {
        ensureOpen();
        return stores.computeIfAbsent(queue, name -> new InMemoryTaskStore(name, clock));
    }

    /** Queues with tasks, dead letters, counters, consumers, blocks or settings; a store only asked about is not listed. */
    @Override
    public List<QueueName> knownQueues() {
        ensureOpen();
        return stores.values().stream()
                .filter(InMemoryTaskStore::holdsData)
                .map(InMemoryTaskStore::queue)
                .sorted(Comparator.comparing(QueueName::value))
                .toList();
    }

    /** Every store made so far throws {@link StoreClosedException} from now on, as a Redis store does. */
    @Override
    public void close() {
        closed = true;
        stores.values().forEach(InMemoryTaskStore::close);
        stores.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the in-memory store factory is closed");
        }
    }
}
