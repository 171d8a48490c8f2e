package io.ordo.simulation;

import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

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
 */
public final class Simulation {
    private Simulation() {
    }

    /** Runs the seed's schedule with default options. */
    public static Trace run(long seed, TaskStore store, VirtualClock clock) {
        return run(seed, store, clock, SimulationOptions.create());
    }

    /** Runs the seed's schedule; throws {@link SimulationFailure} at the first violated invariant. */
    public static Trace run(long seed, TaskStore store, VirtualClock clock, SimulationOptions options) {
        return new SimulationRun(Schedule.generate(seed, options.steps()), store, clock, options).runAll();
    }
}
