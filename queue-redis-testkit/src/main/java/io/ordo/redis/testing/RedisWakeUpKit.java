package io.ordo.redis.testing;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.tck.WakeUpKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/**
 * {@link WakeUpKit} on a Redis store, on the server's clock as in production: the waits are BLPOPs on the
 * queue's signal list. The server runs with {@code hz 1} (one timer tick a second): Redis ends a BLPOP on
 * its timeout only at a tick, so a wait that relied on that timeout to see a delay or a block run out
 * would be up to a second late. Each client's test names how to build its factory.
 */
public abstract class RedisWakeUpKit extends WakeUpKit {
    private static RedisServer server;
    private RedisTaskStoreFactory factory;

    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @BeforeAll
    static void startServer() {
        server = RedisServer.start(RedisServer::freePort, List.of("--hz", "1"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    protected TaskStore createStore(QueueName queue) {
        factory = createFactory(RedisOptions.create(server.uri()));
        return factory.forQueue(queue);
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }
}
