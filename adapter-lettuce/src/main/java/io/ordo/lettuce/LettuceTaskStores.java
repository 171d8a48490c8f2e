package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;

/** Entry point of the Lettuce backend, without Guice: a store factory on one Lettuce client. */
public final class LettuceTaskStores {
    private LettuceTaskStores() {
    }

    /**
     * A factory on the server the URI names ({@code redis://host:6379}; the forms are {@link RedisOptions}'s),
     * with the default options: {@code factory(RedisOptions.create(redisUri))}.
     */
    public static RedisTaskStoreFactory factory(String redisUri) {
        return factory(RedisOptions.create(redisUri));
    }

    /** A factory whose stores share one Lettuce client; it connects on the first command, not here. */
    public static RedisTaskStoreFactory factory(RedisOptions options) {
        return new RedisTaskStoreFactory(LettuceTransport.create(options), options);
    }
}
