package io.ordo.runtime.archfixture;

import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the runtime rules on purpose (ArchitectureRulesCatchViolationsTest). */
public final class RuntimeReachingIntoAnAdapter {
    InMemoryTaskStoreFactory stores;
}
