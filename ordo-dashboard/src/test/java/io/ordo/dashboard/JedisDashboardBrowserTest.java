package io.ordo.dashboard;

import io.ordo.jedis.JedisTaskStores;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;

/** The dashboard's browser tests on Redis through Jedis, against a private redis-server. */
@Tag("full")
class JedisDashboardBrowserTest extends CompletedTasksBrowserContract {
    private RedisServer redis;

    @Override
    TaskStoreFactory openStores() {
        redis = RedisServer.start();
        return JedisTaskStores.factory(RedisOptions.create(redis.uri()));
    }

    @Override
    String backend() {
        return "jedis at " + redis.uri();
    }

    @Override
    void stopBackend() {
        if (redis != null) {
            redis.close();
        }
    }
}
