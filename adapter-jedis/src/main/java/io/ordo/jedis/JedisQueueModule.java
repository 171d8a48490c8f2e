package io.ordo.jedis;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.ordo.redis.RedisOptions;
import io.ordo.ports.TaskStoreFactory;

/**
 * Wires the Redis backend on Jedis: {@code new JedisQueueModule(RedisOptions.create("redis://host:6379"))}.
 * Opens no connection: the pool connects on demand; closing the factory closes it.
 */
public final class JedisQueueModule extends AbstractModule {
    private final RedisOptions options;

    public JedisQueueModule(RedisOptions options) {
        this.options = options;
    }

    /** The defaults of {@link RedisOptions} for the server the URI names. */
    public JedisQueueModule(String redisUri) {
        this(RedisOptions.create(redisUri));
    }

    @Provides
    @Singleton
    TaskStoreFactory taskStoreFactory() {
        return JedisTaskStores.factory(options);
    }
}
