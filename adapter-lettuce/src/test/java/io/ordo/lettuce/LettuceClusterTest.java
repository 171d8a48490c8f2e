package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisClusterKit;
import org.junit.jupiter.api.Tag;

@Tag("full")
class LettuceClusterTest extends RedisClusterKit {
    LettuceClusterTest(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
