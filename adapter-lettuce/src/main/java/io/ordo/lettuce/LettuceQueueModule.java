package io.ordo.lettuce;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.ordo.redis.RedisOptions;
import io.ordo.ports.TaskStoreFactory;

/**
 * Wires the Redis backend on Lettuce: {@code new LettuceQueueModule(RedisOptions.create("redis://host:6379"))}.
 * Opens no connection: the client connects on the first command; closing the factory closes it.
 */
public final class LettuceQueueModule extends AbstractModule {
    private final RedisOptions options;

    public LettuceQueueModule(RedisOptions options) {
        this.options = options;
    }

    /** The defaults of {@link RedisOptions} for the server the URI names. */
    public LettuceQueueModule(String redisUri) {
        this(RedisOptions.create(redisUri));
    }

    @Provides
    @Singleton
    TaskStoreFactory taskStoreFactory() {
        return LettuceTaskStores.factory(options);
    }
}
