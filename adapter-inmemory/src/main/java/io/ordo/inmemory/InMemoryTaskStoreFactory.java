package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Stores that live in this process; the same queue name gives the same store, and the same queue and group
 * names a store of the same group (docs/groups.md).
 */
public final class InMemoryTaskStoreFactory implements TaskStoreFactory {
    private final Clock clock;
    private final ConcurrentMap<QueueName, QueueViews> queues = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public InMemoryTaskStoreFactory(Clock clock) {
        this.clock = clock;
    }

    @Override
    public TaskStore forQueue(QueueName queue) {
        return views(queue).own();
    }

    @Override
    public TaskStore forGroup(QueueName queue, GroupName group) {
        Validate.notNull("group", group);
        return new InMemoryGroupStore(views(queue), group);
    }

    private QueueViews views(QueueName queue) {
        ensureOpen();
        return queues.computeIfAbsent(queue, name -> new QueueViews(name, clock));
    }

    /**
     * Queues with tasks, dead letters, counters, consumers, blocks, settings, schedules or groups; a store
     * only asked about is not listed.
     */
    @Override
    public List<QueueName> knownQueues() {
        ensureOpen();
        return queues.values().stream()
                .filter(QueueViews::holdsData)
                .map(QueueViews::queue)
                .sorted(Comparator.comparing(QueueName::value))
                .toList();
    }

    /** Every store made so far throws {@link StoreClosedException} from now on, as a Redis store does. */
    @Override
    public void close() {
        closed = true;
        queues.values().forEach(QueueViews::close);
        queues.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the in-memory store factory is closed");
        }
    }
}
