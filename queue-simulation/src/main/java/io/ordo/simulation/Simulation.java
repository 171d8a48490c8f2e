package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

import java.util.Optional;
import java.util.function.Function;

/**
 * Runs a seeded schedule of publish / consume / ack / reject / fail / release / crash / reclaim /
 * clock steps against a store and checks the queue's invariants after every step.
 *
 * <pre>{@code
 * VirtualClock clock = new VirtualClock();
 * TaskStore store = new InMemoryTaskStoreFactory(clock).forQueue(QueueName.of("sim"));
 * Trace trace = Simulation.run(42, store, clock);   // throws SimulationFailure naming seed and step
 * }</pre>
 *
 * The store must serve a fresh, empty queue and take its time from {@code clock}; the run moves the
 * clock. The same seed gives the same schedule, and a store that behaves the same gives the same trace.
 *
 * <p>Given the stores of a queue's views instead of one store, some seeds also create and delete consumer
 * groups and go through the groups' stores (docs/groups.md, docs/simulation.md):
 *
 * <pre>{@code
 * InMemoryTaskStoreFactory stores = new InMemoryTaskStoreFactory(clock);
 * Trace trace = Simulation.run(42, view -> view.map(group -> stores.forGroup(queue, group))
 *         .orElseGet(() -> stores.forQueue(queue)), clock);
 * }</pre>
 */
public final class Simulation {
    private Simulation() {
    }

    /** Runs the seed's schedule without consumer groups, with default options. */
    public static Trace run(long seed, TaskStore store, VirtualClock clock) {
        return run(seed, store, clock, SimulationOptions.create());
    }

    /**
     * Runs the seed's schedule without consumer groups (every step through {@code store}); throws
     * {@link SimulationFailure} at the first violated invariant.
     */
    public static Trace run(long seed, TaskStore store, VirtualClock clock, SimulationOptions options) {
        return new SimulationRun(Schedule.generate(seed, options.steps(), false), only(store), clock, options).runAll();
    }

    /** Runs the seed's schedule, consumer groups included, with default options. */
    public static Trace run(long seed, Function<Optional<GroupName>, TaskStore> views, VirtualClock clock) {
        return run(seed, views, clock, SimulationOptions.create());
    }

    /**
     * Runs the seed's schedule, consumer groups included; throws {@link SimulationFailure} at the first
     * violated invariant.
     *
     * @param views the store of each view of one fresh queue: for empty the queue's own ({@code forQueue}),
     *              for a group's name that group's ({@code forGroup}), which need not exist yet
     */
    public static Trace run(long seed, Function<Optional<GroupName>, TaskStore> views, VirtualClock clock,
                            SimulationOptions options) {
        return new SimulationRun(Schedule.generate(seed, options.steps(), true), views, clock, options).runAll();
    }

    /** The views of a queue served by one store alone: its own view; a schedule without groups asks no other. */
    static Function<Optional<GroupName>, TaskStore> only(TaskStore store) {
        return view -> {
            if (view.isPresent()) {
                throw new IllegalArgumentException(
                        "a run on one store has no consumer groups, asked for " + view.get());
            }
            return store;
        };
    }
}
