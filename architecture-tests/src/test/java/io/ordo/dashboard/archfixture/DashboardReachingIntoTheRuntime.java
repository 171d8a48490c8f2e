package io.ordo.dashboard.archfixture;

import io.ordo.runtime.Workers;

/** Breaks the dashboard's rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class DashboardReachingIntoTheRuntime {
    Workers workers;
}
