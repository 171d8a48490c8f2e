package io.ordo.runtime.archfixture;

import io.ordo.spring.OrdoPublishers;
import org.springframework.context.ApplicationContext;

/** Breaks the Spring rules on purpose (ArchitectureRulesCatchViolationsTest). */
public final class RuntimeReachingIntoSpring {
    ApplicationContext context;
    OrdoPublishers publishers;
}
