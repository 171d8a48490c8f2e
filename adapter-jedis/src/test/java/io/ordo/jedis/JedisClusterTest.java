package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisClusterKit;

class JedisClusterTest extends RedisClusterKit {
    JedisClusterTest(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
