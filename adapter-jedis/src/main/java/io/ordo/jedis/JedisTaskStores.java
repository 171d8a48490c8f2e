package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;

/** Entry point of the Jedis backend: a store factory on one pooled Jedis client. */
public final class JedisTaskStores {
    private JedisTaskStores() {
    }

    /** A factory whose stores share one connection pool; connections open on demand, not here. */
    public static RedisTaskStoreFactory factory(RedisOptions options) {
        return new RedisTaskStoreFactory(new JedisTransport(options), options);
    }
}
