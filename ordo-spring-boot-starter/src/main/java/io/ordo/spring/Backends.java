package io.ordo.spring;

import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.jedis.JedisTaskStores;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.util.Locale;

/**
 * Makes the store factory of the chosen backend with the backend's own entry point. Each backend is
 * an optional dependency: a backend class is touched only once its adapter is known to be present,
 * and a missing one is named in the error.
 */
final class Backends {
    private Backends() {
    }

    static TaskStoreFactory factory(OrdoProperties.Backend backend, Environment environment, ClassLoader classLoader) {
        return switch (backend) {
            case LETTUCE -> {
                require(classLoader, backend, "io.ordo.lettuce.LettuceTaskStores", "adapter-lettuce");
                yield Lettuce.factory(RedisOptions.create(RedisUris.resolve(environment)));
            }
            case JEDIS -> {
                require(classLoader, backend, "io.ordo.jedis.JedisTaskStores", "adapter-jedis");
                yield Jedis.factory(RedisOptions.create(RedisUris.resolve(environment)));
            }
            case INMEMORY -> {
                require(classLoader, backend, "io.ordo.inmemory.InMemoryTaskStoreFactory", "adapter-inmemory");
                yield InMemory.factory();
            }
        };
    }

    private static void require(ClassLoader classLoader, OrdoProperties.Backend backend, String className, String artifact) {
        if (!ClassUtils.isPresent(className, classLoader)) {
            throw new IllegalStateException("ordo.backend=" + backend.name().toLowerCase(Locale.ROOT)
                    + " needs io.ordo:" + artifact + " on the classpath");
        }
    }

    // one holder class per backend, so only the chosen adapter's classes are ever loaded

    private static final class Lettuce {
        static TaskStoreFactory factory(RedisOptions options) {
            return LettuceTaskStores.factory(options);
        }
    }

    private static final class Jedis {
        static TaskStoreFactory factory(RedisOptions options) {
            return JedisTaskStores.factory(options);
        }
    }

    private static final class InMemory {
        static TaskStoreFactory factory() {
            return new InMemoryTaskStoreFactory(Clock.system());
        }
    }
}
