package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisDeploymentContractKit;
import org.junit.jupiter.api.Tag;

/** The contract on a three-master Redis Cluster through Jedis's cluster client. */
@Tag("full")
class JedisClusterContractTest extends RedisDeploymentContractKit {
    JedisClusterContractTest(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
