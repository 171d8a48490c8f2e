package io.ordo.jedis;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.tck.WakeUpKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** On the server's clock, as in production: the waits are BLPOPs on the queue's signal list. */
@ExtendWith(RedisServerExtension.class)
class JedisWakeUpTest extends WakeUpKit {
    private final RedisTaskStoreFactory factory;

    JedisWakeUpTest(RedisServer server) {
        factory = JedisTaskStores.factory(RedisOptions.create(server.uri()));
    }

    @Override
    protected TaskStore createStore(QueueName queue) {
        return factory.forQueue(queue);
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }
}
