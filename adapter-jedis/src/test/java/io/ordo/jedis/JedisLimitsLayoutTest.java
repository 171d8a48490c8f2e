package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisLimitsLayoutKit;

class JedisLimitsLayoutTest extends RedisLimitsLayoutKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
