package io.ordo.jedis;

import com.google.inject.Module;
import io.ordo.ports.Clock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisBackendKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class JedisBackendTest extends RedisBackendKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }

    @Override
    protected Module queueModule(RedisOptions options) {
        return new JedisQueueModule(options);
    }

    @Override
    protected Module queueModule(RedisOptions options, Clock clock) {
        return new JedisQueueModule(options, clock);
    }
}
