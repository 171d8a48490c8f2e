package io.ordo.tracing.otel;

import io.ordo.domain.QueueName;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;

/** Tracing on the Redis store through Lettuce, on a private redis-server: the trace context survives the trip through Redis. */
class LettuceTracingTest extends TracedQueueContract {
    private static RedisServer server;
    private static RedisTaskStoreFactory stores;

    @BeforeAll
    static void startRedis() {
        server = RedisServer.start();
        stores = LettuceTaskStores.factory(RedisOptions.create(server.uri()));
    }

    @AfterAll
    static void stopRedis() {
        if (stores != null) {
            stores.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected TaskStore newStore(QueueName queue) {
        server.flushAll();
        return stores.forQueue(queue);
    }

    @Override
    protected Clock clock() {
        return Clock.system();
    }

    @Override
    protected void passTime(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
