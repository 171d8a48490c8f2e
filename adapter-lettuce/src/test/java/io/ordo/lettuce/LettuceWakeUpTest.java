package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisWakeUpKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class LettuceWakeUpTest extends RedisWakeUpKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
