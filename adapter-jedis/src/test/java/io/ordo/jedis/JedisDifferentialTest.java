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

    /**
     * A quarter of the kit's seeds: the store's rules are the same Redis functions whichever client calls them,
     * and LettuceDifferentialTest runs them on all 200 seeds. What is Jedis's own is its transport (the calls and
     * the replies' types), and seeds 1..50 already make every kind of call that the 200 make, each at least 29
     * times.
     */
    @Override
    protected int defaultSeeds() {
        return 50;
    }

    @Override
    protected String replayCommand() {
        return "mvn -q -B test -pl adapter-jedis -Dtest=JedisDifferentialTest -Dordo.simulation.seed={seed}";
    }
}
