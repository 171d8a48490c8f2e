package io.ordo.sharding.archfixture;

import io.ordo.runtime.Workers;

/** Breaks the sharding rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class ShardingReachingIntoTheRuntime {
    Workers workers;
}
