package io.ordo.spring;

import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private redis-server for one test class. Declared before {@code @SpringBootTest}, it starts before
 * the application context and stops after the context has closed (extensions end in reverse order).
 */
final class PrivateRedis implements BeforeAllCallback, AfterAllCallback {
    private static RedisServer server;

    static RedisServer server() {
        if (server == null) {
            throw new IllegalStateException("declare @ExtendWith(PrivateRedis.class) before @SpringBootTest");
        }
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
        server = null;
    }
}
