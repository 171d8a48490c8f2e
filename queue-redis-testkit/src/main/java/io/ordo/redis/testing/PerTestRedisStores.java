package io.ordo.redis.testing;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.tck.contract.StoreUnderTest;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.function.Function;

/**
 * A client's stores for a kit, on the run's shared {@link RedisServer}: one factory per test, opened on
 * the test's first store and closed after it, so every test starts on fresh connections. A client's test
 * registers it ({@code @RegisterExtension}) with the client's factory and returns its stores from the
 * kit's {@code createStore}.
 */
public final class PerTestRedisStores implements StoreUnderTest, BeforeEachCallback, AfterEachCallback {
    private final Function<RedisOptions, RedisTaskStoreFactory> client;
    private RedisServer server;
    private RedisTaskStoreFactory factory;

    public PerTestRedisStores(Function<RedisOptions, RedisTaskStoreFactory> client) {
        this.client = client;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server = RedisServerExtension.server(context);
    }

    @Override
    public TaskStore create(QueueName queue, VirtualClock clock) {
        if (factory == null) {
            factory = client.apply(RedisOptions.create(server.uri()));
        }
        return factory.forQueue(queue, clock);
    }

    /** The store of a consumer group of the queue, on the same factory as {@link #create}'s. */
    public TaskStore createGroup(QueueName queue, GroupName group, VirtualClock clock) {
        if (factory == null) {
            factory = client.apply(RedisOptions.create(server.uri()));
        }
        return factory.forGroup(queue, group, clock);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (factory != null) {
            factory.close();
            factory = null;
        }
    }
}
