package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisDifferentialKit;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;

@Tag("full")
class LettuceDifferentialTest extends RedisDifferentialKit {
    LettuceDifferentialTest(RedisServer server) {
        super(server);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisServer server) {
        return LettuceTaskStores.factory(RedisOptions.create(server.uri()));
    }

    @Override
    protected String replayCommand() {
        return "mvn -q -B test -pl adapter-lettuce -Dtest=LettuceDifferentialTest -Dordo.simulation.seed={seed}";
    }
}
