package io.ordo.inmemory;

import io.ordo.domain.QueueName;
import io.ordo.ports.VirtualClock;
import io.ordo.simulation.Differential;
import io.ordo.simulation.Seeds;
import io.ordo.simulation.Simulation;
import io.ordo.simulation.SimulationOptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Seeded simulation of the in-memory store: every seed's schedule runs with the invariants checked
 * after every step. A failure names its seed and prints the command that replays it:
 * {@code mvn -q -B test -pl adapter-inmemory -Dtest=InMemorySimulationTest -Dordo.simulation.seed=<seed>};
 * {@code -Dordo.simulation.seeds=<n>} changes how many seeds run (see docs/simulation.md).
 */
class InMemorySimulationTest {
    private static final int SEEDS = 1_000;
    private static final int DIFFERENTIAL_SEEDS = 200;
    private static final QueueName QUEUE = QueueName.of("simulation");

    @TestFactory
    Stream<DynamicTest> every_seed_keeps_the_queue_invariants() {
        return Arrays.stream(Seeds.fromSystemProperties(SEEDS)).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    VirtualClock clock = new VirtualClock();
                    try (InMemoryTaskStoreFactory stores = new InMemoryTaskStoreFactory(clock)) {
                        Simulation.run(seed, stores.forQueue(QUEUE), clock);
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> two_in_memory_stores_agree_step_by_step() {
        SimulationOptions options = SimulationOptions.builder()
                .replayCommand("mvn -q -B test -pl adapter-inmemory -Dtest='InMemorySimulationTest#two_in_memory*'"
                        + " -Dordo.simulation.seed={seed}")
                .build();
        return Arrays.stream(Seeds.fromSystemProperties(DIFFERENTIAL_SEEDS)).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    // Different start times: the traces use time since the start, so they must still agree.
                    VirtualClock clockA = new VirtualClock();
                    VirtualClock clockB = new VirtualClock(VirtualClock.DEFAULT_START_MILLIS + 86_400_000L);
                    try (InMemoryTaskStoreFactory a = new InMemoryTaskStoreFactory(clockA);
                         InMemoryTaskStoreFactory b = new InMemoryTaskStoreFactory(clockB)) {
                        Differential.compare(seed, a.forQueue(QUEUE), clockA, b.forQueue(QUEUE), clockB, options);
                    }
                }));
    }
}
