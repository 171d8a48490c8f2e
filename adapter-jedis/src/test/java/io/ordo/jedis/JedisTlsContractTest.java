package io.ordo.jedis;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisDeploymentContractKit;
import io.ordo.redis.testing.TlsRedisServer;
import org.junit.jupiter.api.Tag;

/** The contract over TLS ({@code rediss://}) through Jedis. */
@Tag("full")
class JedisTlsContractTest extends RedisDeploymentContractKit {
    JedisTlsContractTest(TlsRedisServer server) {
        super(server);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return JedisTaskStores.factory(options);
    }
}
