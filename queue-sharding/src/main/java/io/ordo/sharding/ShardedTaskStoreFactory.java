package io.ordo.sharding;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.util.Comparator;
import java.util.List;

/**
 * Sharded stores for every queue, each over the same number of shards of one backend, so workers and
 * publishers built on a {@link TaskStoreFactory} use sharded queues unchanged:
 * {@code new ShardedTaskStoreFactory(redis, redis::forShard, 8)}. Closing it closes the backend. Given a
 * {@link GroupShardSource} too, it gives the sharded stores of consumer groups ({@link #forGroup}).
 */
public final class ShardedTaskStoreFactory implements TaskStoreFactory {
    private final TaskStoreFactory backend;
    private final ShardSource source;
    private final GroupShardSource groupSource;
    private final int shards;

    /** Without the shards' consumer groups: {@link #forGroup} is unsupported. */
    public ShardedTaskStoreFactory(TaskStoreFactory backend, ShardSource source, int shards) {
        this(backend, source, null, shards);
    }

    /** With the shards' consumer groups from {@code groupSource} (null: none). */
    public ShardedTaskStoreFactory(TaskStoreFactory backend, ShardSource source, GroupShardSource groupSource,
                                   int shards) {
        this.backend = Validate.notNull("backend", backend);
        this.source = Validate.notNull("source", source);
        this.groupSource = groupSource;
        this.shards = Validate.range("shards", shards, 1, ShardedTaskStore.MAX_SHARDS);
    }

    @Override
    public TaskStore forQueue(QueueName queue) {
        return builder(queue).build();
    }

    /**
     * The sharded store of one consumer group: that group's store on every shard. Throws
     * {@link UnsupportedOperationException} when the factory was made without a {@link GroupShardSource}.
     */
    @Override
    public TaskStore forGroup(QueueName queue, GroupName group) {
        Validate.notNull("group", group);
        if (groupSource == null) {
            throw new UnsupportedOperationException("this sharded factory was made without a GroupShardSource:"
                    + " it has no stores of consumer groups");
        }
        return builder(queue).build().forGroup(group);
    }

    private ShardedTaskStore.Builder builder(QueueName queue) {
        ShardedTaskStore.Builder builder = ShardedTaskStore.builder(queue, shards, source);
        return groupSource == null ? builder : builder.groups(groupSource);
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
