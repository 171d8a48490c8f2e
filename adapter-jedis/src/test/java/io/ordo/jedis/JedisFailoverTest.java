package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisFailoverKit;
import org.junit.jupiter.api.Tag;

/** Redis restarts from the append-only file and Sentinel failovers under load, on the Jedis store. */
@Tag("full")
class JedisFailoverTest extends RedisFailoverKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }

    @Override
    protected String backendName() {
        return "jedis";
    }
}
