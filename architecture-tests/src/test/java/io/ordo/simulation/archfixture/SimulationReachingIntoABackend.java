package io.ordo.simulation.archfixture;

import io.ordo.redis.RedisOptions;
import redis.clients.jedis.Jedis;

/** Breaks the simulation rule on purpose (ArchitectureRulesCatchViolationsTest). */
public final class SimulationReachingIntoABackend {
    RedisOptions options;
    Jedis jedis;
}
