package io.ordo.tracing.otel.archfixture;

import io.ordo.inmemory.InMemoryTaskStoreFactory;

/** Breaks the tracing module's rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class TracingReachingIntoAnAdapter {
    InMemoryTaskStoreFactory stores;
}
