package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;

/** Entry point of the Lettuce backend: a store factory on one Lettuce client. */
public final class LettuceTaskStores {
    private LettuceTaskStores() {
    }

    /** A factory whose stores share one Lettuce client; it connects on the first command, not here. */
    public static RedisTaskStoreFactory factory(RedisOptions options) {
        return new RedisTaskStoreFactory(LettuceTransport.create(options), options);
    }
}
