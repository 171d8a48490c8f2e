package io.ordo.lettuce;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;

/**
 * Wires the Redis backend on Lettuce: {@code new LettuceQueueModule("redis://host:6379")}, and with
 * {@code RuntimeModule} beside it, workers. Binds the {@link TaskStoreFactory} and a {@link Clock}: the store
 * keeps time with the server's {@code TIME}, the clock is what workers measure their own intervals on (the
 * system clock unless one is given). Opens no connection: the client connects on the first command; closing the factory closes it.
 */
public final class LettuceQueueModule extends AbstractModule {
    private final RedisOptions options;
    private final Clock clock;

    /** The server and connection options given, the system clock. */
    public LettuceQueueModule(RedisOptions options) {
        this(options, Clock.system());
    }

    /** The server and connection options given, and the clock workers use (a test's own, say). */
    public LettuceQueueModule(RedisOptions options, Clock clock) {
        this.options = Validate.notNull("options", options);
        this.clock = Validate.notNull("clock", clock);
    }

    /** The defaults of {@link RedisOptions} for the server the URI names, the system clock. */
    public LettuceQueueModule(String redisUri) {
        this(RedisOptions.create(redisUri));
    }

    @Override
    protected void configure() {
        bind(Clock.class).toInstance(clock);
    }

    @Provides
    @Singleton
    TaskStoreFactory taskStoreFactory() {
        return LettuceTaskStores.factory(options);
    }
}
