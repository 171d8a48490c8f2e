package io.ordo.redis.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Gives a test class a private {@link RedisCluster} or {@link TlsRedisServer} as a parameter (constructor,
 * lifecycle or test method). Each is started once per top-level test class, shared by its nested
 * classes, and stopped when the class ends: a cluster takes seconds to form, a test takes milliseconds.
 */
public final class RedisDeploymentExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisDeploymentExtension.class);
    private static final Map<Class<?>, Supplier<RedisDeployment>> STARTERS =
            Map.of(RedisCluster.class, RedisCluster::start, TlsRedisServer.class, TlsRedisServer::start);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return STARTERS.containsKey(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return topLevelClass(context).getStore(NAMESPACE)
                .getOrComputeIfAbsent(type, key -> STARTERS.get(key).get(), RedisDeployment.class);
    }

    private static ExtensionContext topLevelClass(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getParent().isPresent() && current.getParent().get() != context.getRoot()) {
            current = current.getParent().get();
        }
        return current;
    }
}
