package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisForeignKeyKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class LettuceForeignKeyTest extends RedisForeignKeyKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
