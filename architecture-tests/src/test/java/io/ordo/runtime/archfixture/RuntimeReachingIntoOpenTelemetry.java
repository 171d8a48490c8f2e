package io.ordo.runtime.archfixture;

import io.opentelemetry.api.trace.Tracer;

/** Breaks the rule that only the tracing module knows OpenTelemetry, on purpose (ArchitectureRulesCatchViolationsTest). */
public final class RuntimeReachingIntoOpenTelemetry {
    Tracer tracer;
}
