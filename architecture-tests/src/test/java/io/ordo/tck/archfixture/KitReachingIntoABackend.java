package io.ordo.tck.archfixture;

import io.lettuce.core.RedisClient;
import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the kit rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class KitReachingIntoABackend {
    InMemoryTaskStoreFactory stores;
    RedisClient client;
}
