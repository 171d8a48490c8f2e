package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisFailoverKit;
import org.junit.jupiter.api.Tag;

/** Redis restarts from the append-only file and Sentinel failovers under load, on the Lettuce store. */
@Tag("full")
class LettuceFailoverTest extends RedisFailoverKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }

    @Override
    protected String backendName() {
        return "lettuce";
    }
}
