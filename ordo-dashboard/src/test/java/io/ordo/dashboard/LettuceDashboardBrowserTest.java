package io.ordo.dashboard;

import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;

/** The dashboard's browser tests on Redis through Lettuce, against a private redis-server. */
@Tag("full")
class LettuceDashboardBrowserTest extends CompletedTasksBrowserContract {
    private RedisServer redis;

    @Override
    TaskStoreFactory openStores() {
        redis = RedisServer.start();
        return LettuceTaskStores.factory(RedisOptions.create(redis.uri()));
    }

    @Override
    String backend() {
        return "lettuce at " + redis.uri();
    }

    @Override
    void stopBackend() {
        if (redis != null) {
            redis.close();
        }
    }
}
