package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisDeploymentContractKit;
import io.ordo.redis.testing.TlsRedisServer;

/** The contract over TLS ({@code rediss://}) through Jedis. */
class JedisTlsContractTest extends RedisDeploymentContractKit {
    JedisTlsContractTest(TlsRedisServer server) {
        super(server);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
