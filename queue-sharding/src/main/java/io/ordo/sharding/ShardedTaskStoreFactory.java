package io.ordo.sharding;

import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.util.Comparator;
import java.util.List;

/**
 * Sharded stores for every queue, each over the same number of shards of one backend, so workers and
 * publishers built on a {@link TaskStoreFactory} use sharded queues unchanged:
 * {@code new ShardedTaskStoreFactory(redis, redis::forShard, 8)}. Closing it closes the backend.
 */
public final class ShardedTaskStoreFactory implements TaskStoreFactory {
    private final TaskStoreFactory backend;
    private final ShardSource source;
    private final int shards;

    public ShardedTaskStoreFactory(TaskStoreFactory backend, ShardSource source, int shards) {
        this.backend = Validate.notNull("backend", backend);
        this.source = Validate.notNull("source", source);
        this.shards = Validate.range("shards", shards, 1, ShardedTaskStore.MAX_SHARDS);
    }

    @Override
    public TaskStore forQueue(QueueName queue) {
        return ShardedTaskStore.create(queue, shards, source);
    }

    /**
     * The backend's queues, each once: a Redis backend already lists the shards {@code orders#0..n} of a
     * sharded queue under its logical name {@code orders} (queue names cannot hold {@code #}).
     */
    @Override
    public List<QueueName> knownQueues() {
        return backend.knownQueues().stream().distinct().sorted(Comparator.comparing(QueueName::value)).toList();
    }

    @Override
    public void close() {
        backend.close();
    }
}
