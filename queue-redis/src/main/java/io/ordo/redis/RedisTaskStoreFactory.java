package io.ordo.redis;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Stores for any number of queues over one backend transport (one client, its connections shared by
 * every queue). Closing the factory closes the transport.
 */
public final class RedisTaskStoreFactory implements TaskStoreFactory {
    private final RedisTransport transport;
    private final ScriptExecutor executor;

    public RedisTaskStoreFactory(RedisTransport transport, RedisOptions options) {
        this.transport = Validate.notNull("transport", transport);
        this.executor = new ScriptExecutor(transport, Validate.notNull("options", options));
    }

    /** The queue's store on the server's clock ({@code TIME} inside every script). */
    @Override
    public TaskStore forQueue(QueueName queue) {
        executor.ensureOpen();
        return new RedisTaskStore(queue, executor, null);
    }

    /**
     * The queue's store on a clock of the caller's (a {@code VirtualClock} in tests): the scripts take
     * now from it instead of the server's {@code TIME}. Production code never needs this.
     */
    public TaskStore forQueue(QueueName queue, Clock clock) {
        executor.ensureOpen();
        return new RedisTaskStore(queue, executor, Validate.notNull("clock", clock));
    }

    @Override
    public TaskStore forGroup(QueueName queue, GroupName group) {
        executor.ensureOpen();
        return new RedisTaskStore(KeySchema.of(Validate.notNull("queue", queue)).forGroup(group), executor, null);
    }

    /** {@link #forGroup(QueueName, GroupName)} on a clock of the caller's, like {@link #forQueue(QueueName, Clock)}. */
    public TaskStore forGroup(QueueName queue, GroupName group, Clock clock) {
        executor.ensureOpen();
        return new RedisTaskStore(KeySchema.of(Validate.notNull("queue", queue)).forGroup(group), executor,
                Validate.notNull("clock", clock));
    }

    /** The store of one consumer group of shard {@code index} of a sharded queue (docs/groups.md). */
    public TaskStore forShardGroup(QueueName queue, int index, GroupName group, Clock clock) {
        executor.ensureOpen();
        return new RedisTaskStore(KeySchema.forShard(queue, index).forGroup(group), executor, clock);
    }

    /**
     * Shard {@code index} of the sharded queue {@code queue}: a queue of its own under hash tag
     * {@code <queue>#<index>} (keys {@code ordo:{orders#3}:…}). A sharded store combines the shards
     * (docs/scaling.md); on its own a shard is an ordinary queue.
     */
    public TaskStore forShard(QueueName queue, int index) {
        executor.ensureOpen();
        return new RedisTaskStore(KeySchema.forShard(queue, index), executor, null);
    }

    /** {@link #forShard(QueueName, int)} on a clock of the caller's, like {@link #forQueue(QueueName, Clock)}. */
    public TaskStore forShard(QueueName queue, int index, Clock clock) {
        executor.ensureOpen();
        return new RedisTaskStore(KeySchema.forShard(queue, index), executor, Validate.notNull("clock", clock));
    }

    /**
     * Queues with any key on the server (on a cluster: on any node), by name; a sharded queue once, under
     * its own name. Scans the key space ({@code SCAN}, so the server is never blocked), which costs time
     * in proportion to every key of the database: for operators' views, not for every call.
     */
    @Override
    public List<QueueName> knownQueues() {
        executor.ensureOpen();
        return executor.scanKeys(KeySchema.KNOWN_QUEUE_PATTERN.getBytes(StandardCharsets.UTF_8)).stream()
                .map(key -> KeySchema.queueOfKey(new String(key, StandardCharsets.UTF_8)))
                .flatMap(Optional::stream)
                .distinct()
                .sorted(Comparator.comparing(QueueName::value))
                .toList();
    }

    /** Closes the transport; every store made by this factory throws {@link io.ordo.ports.StoreClosedException} from now on. */
    @Override
    public void close() {
        executor.close();
        transport.close();
    }
}
