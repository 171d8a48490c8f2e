package io.ordo.ports;

/**
 * Declares a class in queue-ports' package from another module, on purpose: the split-package rule
 * must see it (ArchitectureRulesCatchViolationsTest). A test class, so the real check never imports it.
 */
public final class PortsPackageDeclaredAgain {
}
