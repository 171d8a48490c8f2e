package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;

/** Entry point of the Jedis backend, without Guice: a store factory on one pooled Jedis client. */
public final class JedisTaskStores {
    private JedisTaskStores() {
    }

    /**
     * A factory on the server the URI names ({@code redis://host:6379}; the forms are {@link RedisOptions}'s),
     * with the default options: {@code factory(RedisOptions.create(redisUri))}.
     */
    public static RedisTaskStoreFactory factory(String redisUri) {
        return factory(RedisOptions.create(redisUri));
    }

    /** A factory whose stores share one connection pool; connections open on demand, not here. */
    public static RedisTaskStoreFactory factory(RedisOptions options) {
        return new RedisTaskStoreFactory(new JedisTransport(options), options);
    }
}
