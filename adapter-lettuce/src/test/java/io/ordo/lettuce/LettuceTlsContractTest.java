package io.ordo.lettuce;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisDeploymentContractKit;
import io.ordo.redis.testing.TlsRedisServer;
import org.junit.jupiter.api.Tag;

/** The contract over TLS ({@code rediss://}) through Lettuce. */
@Tag("full")
class LettuceTlsContractTest extends RedisDeploymentContractKit {
    LettuceTlsContractTest(TlsRedisServer server) {
        super(server);
    }

    @Override
    protected RedisTaskStoreFactory createFactory(RedisOptions options) {
        return LettuceTaskStores.factory(options);
    }
}
