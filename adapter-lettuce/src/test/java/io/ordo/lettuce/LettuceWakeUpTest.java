package io.ordo.lettuce;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.tck.WakeUpKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/**
 * On the server's clock, as in production: the waits are BLPOPs on the queue's signal list. The server
 * runs with {@code hz 1} (one timer tick a second): Redis ends a BLPOP on its timeout only at a tick, so
 * a wait that relied on that timeout to see a delay or a block run out would be up to a second late.
 */
class LettuceWakeUpTest extends WakeUpKit {
    private static RedisServer server;
    private RedisTaskStoreFactory factory;

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
        factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()));
        return factory.forQueue(queue);
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }
}
