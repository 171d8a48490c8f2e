package io.ordo.domain.archfixture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Injector;
import io.ordo.cli.OrdoCli;
import org.slf4j.Logger;

/** Breaks the domain rules on purpose, so the rules are seen to fail (ArchitectureRulesCatchViolationsTest). */
public final class DomainReachingOut {
    Injector injector;
    ObjectMapper mapper;
    Logger logger;
    OrdoCli cli;
}
