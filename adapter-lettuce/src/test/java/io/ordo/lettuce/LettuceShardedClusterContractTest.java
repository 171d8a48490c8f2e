package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.ShardedClusterContractKit;
import org.junit.jupiter.api.Tag;

/** The contract of a sharded queue on a three-master cluster through Lettuce (the sharded store is client-agnostic). */
@Tag("full")
class LettuceShardedClusterContractTest extends ShardedClusterContractKit {
    LettuceShardedClusterContractTest(RedisCluster cluster) {
        super(cluster);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
