package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisDifferentialKit;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;

@Tag("full")
class JedisDifferentialTest extends RedisDifferentialKit {
    JedisDifferentialTest(RedisServer server) {
        super(server);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisServer server) {
        return JedisTaskStores.factory(RedisOptions.create(server.uri()));
    }

    @Override
    protected String replayCommand() {
        return "mvn -q -B test -pl adapter-jedis -Dtest=JedisDifferentialTest -Dordo.simulation.seed={seed}";
    }
}
