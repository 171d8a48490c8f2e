package io.ordo.inmemory;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.simulation.Differential;
import io.ordo.simulation.Seeds;
import io.ordo.simulation.Simulation;
import io.ordo.simulation.SimulationOptions;
import io.ordo.simulation.Trace;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Seeded simulation of the in-memory store: every seed's schedule runs with the invariants checked
 * after every step, and a second test runs each seed on two stores that must agree step by step. The
 * runs are given the queue's own store and its consumer groups' ({@code forQueue}, {@code forGroup}), so
 * the seeds with groups create, use and delete them (docs/simulation.md).
 * A failure names its seed and prints the command that replays it, e.g.
 * {@code mvn -q -B test -pl adapter-inmemory -Dtest=InMemorySimulationTest -Dordo.simulation.seed=1234};
 * {@code -Dordo.simulation.seeds=<n>} changes how many seeds run (see docs/simulation.md).
 */
class InMemorySimulationTest {
    private static final int SEEDS = 1_000;
    private static final int DIFFERENTIAL_SEEDS = 200;
    private static final QueueName QUEUE = QueueName.of("simulation");
    /** A replayed seed shows its whole trace (in the failure, or in the test's output file when it passes). */
    private static final int WHOLE_TRACE = 100_000;

    @TestFactory
    Stream<DynamicTest> every_seed_keeps_the_queue_invariants() {
        SimulationOptions options = options("InMemorySimulationTest");
        return Arrays.stream(Seeds.fromSystemProperties(SEEDS)).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    VirtualClock clock = new VirtualClock();
                    try (InMemoryTaskStoreFactory stores = new InMemoryTaskStoreFactory(clock)) {
                        show(Simulation.run(seed, views(stores), clock, options));
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> two_in_memory_stores_agree_step_by_step() {
        SimulationOptions options = options("'InMemorySimulationTest#two_in_memory*'");
        return Arrays.stream(Seeds.fromSystemProperties(DIFFERENTIAL_SEEDS)).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    // One time for both: schedules' slots are instants, not times since the start.
                    VirtualClock clockA = new VirtualClock();
                    VirtualClock clockB = new VirtualClock();
                    try (InMemoryTaskStoreFactory a = new InMemoryTaskStoreFactory(clockA);
                         InMemoryTaskStoreFactory b = new InMemoryTaskStoreFactory(clockB)) {
                        show(Differential.compare(seed, views(a), clockA, views(b), clockB, options));
                    }
                }));
    }

    /** The queue's own store for empty, a consumer group's store for its name. */
    private static Function<Optional<GroupName>, TaskStore> views(InMemoryTaskStoreFactory stores) {
        return view -> view.map(group -> stores.forGroup(QUEUE, group)).orElseGet(() -> stores.forQueue(QUEUE));
    }

    private static SimulationOptions options(String test) {
        SimulationOptions.Builder options = SimulationOptions.builder()
                .replayCommand("mvn -q -B test -pl adapter-inmemory -Dtest=" + test + " -Dordo.simulation.seed={seed}");
        return Seeds.replaying() ? options.traceTail(WHOLE_TRACE).build() : options.build();
    }

    private static void show(Trace trace) {
        if (Seeds.replaying()) {
            System.out.println(trace);
        }
    }
}
