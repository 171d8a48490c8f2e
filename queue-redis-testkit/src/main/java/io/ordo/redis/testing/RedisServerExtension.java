package io.ordo.redis.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives Redis tests a private {@link RedisServer}: {@code @ExtendWith(RedisServerExtension.class)} and
 * a {@code RedisServer} parameter (constructor, lifecycle or test method). One server is started for
 * the whole test run and killed when it ends; tests keep apart by queue name. A test that breaks its
 * server on purpose (maxmemory, shutdown) starts its own with {@link RedisServer#start()}.
 */
public final class RedisServerExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return server(context);
    }

    /** The run's shared server, started on first use. */
    public static RedisServer server(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(RedisServer.class, type -> RedisServer.start(), RedisServer.class);
    }
}
