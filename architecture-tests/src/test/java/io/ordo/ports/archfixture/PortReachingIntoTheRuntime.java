package io.ordo.ports.archfixture;

import io.ordo.runtime.Publisher;

/** Breaks the ports rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class PortReachingIntoTheRuntime {
    Publisher<String> publisher;
}
