package io.ordo.redis.archfixture;

import com.google.inject.Injector;
import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the Redis support rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class RedisSupportReachingOut {
    Injector injector;
    InMemoryTaskStoreFactory stores;
}
