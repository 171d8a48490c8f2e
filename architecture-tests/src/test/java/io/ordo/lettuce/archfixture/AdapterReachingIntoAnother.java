package io.ordo.lettuce.archfixture;

import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the adapter rules on purpose (ArchitectureRulesCatchViolationsTest). */
public final class AdapterReachingIntoAnother {
    InMemoryTaskStoreFactory stores;
}
