package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisTlsKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class JedisTlsTest extends RedisTlsKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
