package io.ordo.systemtest;

import io.ordo.jedis.JedisTaskStores;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;

import java.util.Locale;

/** The two Redis backends, as the tests open them in their own JVM and name them to {@code ordo}. */
public enum RedisClient {
    LETTUCE, JEDIS;

    public TaskStoreFactory open(String uri) {
        RedisOptions options = RedisOptions.create(uri);
        return this == LETTUCE ? LettuceTaskStores.factory(options) : JedisTaskStores.factory(options);
    }

    public String backend() {
        return name().toLowerCase(Locale.ROOT);
    }
}
