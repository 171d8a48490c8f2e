package io.ordo.simulation;

import io.ordo.domain.GroupName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs one seed's schedule on two stores (or two backends' views of a queue: its own store and its consumer
 * groups') in lockstep and fails at the first step whose trace lines differ, showing both lines. Each run is
 * checked by its own invariant checker as well, so a store that breaks a rule fails with that rule's name
 * even before the traces part.
 *
 * <p>The two clocks must read the same instant at the start; the runs then move them alike, so both
 * stores see one time throughout. Schedules need it: their slots are instants (a cron slot is a wall
 * time in a zone, a slot's task id names its instant), not times since the start.
 */
public final class Differential {
    private Differential() {
    }

    /** Compares two stores with default options, without consumer groups; returns the (common) trace. */
    public static Trace compare(long seed, TaskStore storeA, VirtualClock clockA, TaskStore storeB,
                                VirtualClock clockB) {
        return compare(seed, storeA, clockA, storeB, clockB, SimulationOptions.create());
    }

    /**
     * Compares two stores without consumer groups (every step through the one store); throws
     * {@link DifferentialFailure} at the first differing step.
     */
    public static Trace compare(long seed, TaskStore storeA, VirtualClock clockA, TaskStore storeB,
                                VirtualClock clockB, SimulationOptions options) {
        return compare(Schedule.generate(seed, options.steps(), false), Simulation.only(storeA), clockA,
                Simulation.only(storeB), clockB, options);
    }

    /** Compares two backends' views of a queue with default options, consumer groups included. */
    public static Trace compare(long seed, Function<Optional<GroupName>, TaskStore> viewsA, VirtualClock clockA,
                                Function<Optional<GroupName>, TaskStore> viewsB, VirtualClock clockB) {
        return compare(seed, viewsA, clockA, viewsB, clockB, SimulationOptions.create());
    }

    /**
     * Compares two backends' views of a queue, consumer groups included (see
     * {@link Simulation#run(long, Function, VirtualClock, SimulationOptions)}); throws {@link DifferentialFailure}
     * at the first differing step.
     */
    public static Trace compare(long seed, Function<Optional<GroupName>, TaskStore> viewsA, VirtualClock clockA,
                                Function<Optional<GroupName>, TaskStore> viewsB, VirtualClock clockB,
                                SimulationOptions options) {
        return compare(Schedule.generate(seed, options.steps(), true), viewsA, clockA, viewsB, clockB, options);
    }

    private static Trace compare(Schedule schedule, Function<Optional<GroupName>, TaskStore> viewsA,
                                 VirtualClock clockA, Function<Optional<GroupName>, TaskStore> viewsB,
                                 VirtualClock clockB, SimulationOptions options) {
        long seed = schedule.seed();
        if (clockA.millis() != clockB.millis()) {
            throw new IllegalArgumentException("the two stores' clocks must read the same time, read "
                    + clockA.millis() + " and " + clockB.millis() + ": schedules' slots are instants");
        }
        SimulationRun a = new SimulationRun(schedule, viewsA, clockA, options);
        SimulationRun b = new SimulationRun(schedule, viewsB, clockB, options);
        String nameA = "A " + a.storeName();
        String nameB = "B " + b.storeName();
        while (a.hasNext()) {
            int index = a.nextIndex();
            List<String> before = a.trace().tail(options.traceTail());
            String lineA = a.step();
            String lineB = b.step();
            if (!lineA.equals(lineB)) {
                throw DifferentialFailure.of(seed, index, nameA, lineA, nameB, lineB, before,
                        options.replayCommandFor(seed));
            }
        }
        return a.trace();
    }
}
