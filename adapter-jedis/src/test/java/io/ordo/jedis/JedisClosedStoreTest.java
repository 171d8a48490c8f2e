package io.ordo.jedis;

import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.tck.ClosedStoreKit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisServerExtension.class)
@Tag("full")
class JedisClosedStoreTest extends ClosedStoreKit {
    private final RedisServer server;

    JedisClosedStoreTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected TaskStoreFactory openFactory(VirtualClock clock) {
        return JedisTaskStores.factory(RedisOptions.create(server.uri()));
    }
}
