package io.ordo.lettuce;

import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.tck.ClosedStoreKit;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisServerExtension.class)
class LettuceClosedStoreTest extends ClosedStoreKit {
    private final RedisServer server;

    LettuceClosedStoreTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected TaskStoreFactory openFactory(VirtualClock clock) {
        return LettuceTaskStores.factory(RedisOptions.create(server.uri()));
    }
}
