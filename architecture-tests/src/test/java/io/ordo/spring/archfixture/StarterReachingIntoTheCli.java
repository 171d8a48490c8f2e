package io.ordo.spring.archfixture;

import io.ordo.cli.OrdoCli;

/** Breaks the starter's rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class StarterReachingIntoTheCli {
    OrdoCli cli;
}
