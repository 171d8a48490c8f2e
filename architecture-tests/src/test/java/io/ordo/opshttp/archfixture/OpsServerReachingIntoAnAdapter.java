package io.ordo.opshttp.archfixture;

import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the ops server's rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class OpsServerReachingIntoAnAdapter {
    InMemoryTaskStoreFactory stores;
}
