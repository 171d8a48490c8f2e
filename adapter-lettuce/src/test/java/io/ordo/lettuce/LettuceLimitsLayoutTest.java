package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisLimitsLayoutKit;

class LettuceLimitsLayoutTest extends RedisLimitsLayoutKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
