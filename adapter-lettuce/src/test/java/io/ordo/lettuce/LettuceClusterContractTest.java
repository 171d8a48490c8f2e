package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisDeploymentContractKit;
import org.junit.jupiter.api.Tag;

/** The contract on a three-master Redis Cluster through Lettuce's cluster client. */
@Tag("full")
class LettuceClusterContractTest extends RedisDeploymentContractKit {
    LettuceClusterContractTest(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
