package io.ordo.lettuce;

import com.google.inject.Module;
import io.ordo.ports.Clock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisBackendKit;

class LettuceBackendTest extends RedisBackendKit {
    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }

    @Override
    protected Module queueModule(RedisOptions options) {
        return new LettuceQueueModule(options);
    }

    @Override
    protected Module queueModule(RedisOptions options, Clock clock) {
        return new LettuceQueueModule(options, clock);
    }
}
