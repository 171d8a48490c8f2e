package io.ordo.lettuce;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.tck.DuePromotionKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisServerExtension.class)
class LettuceDuePromotionTest extends DuePromotionKit {
    private final RedisTaskStoreFactory factory;

    LettuceDuePromotionTest(RedisServer server) {
        factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()));
    }

    @Override
    protected TaskStore createStore(QueueName queue, VirtualClock clock) {
        return factory.forQueue(queue, clock);
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }
}
