package io.ordo.simulation;

import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import java.util.List;

/**
 * Runs one seed's schedule on two stores in lockstep and fails at the first step whose trace lines
 * differ, showing both lines. Each run is checked by its own invariant checker as well, so a store
 * that breaks a rule fails with that rule's name even before the traces part.
 *
 * <p>The two clocks must read the same instant at the start; the runs then move them alike, so both
 * stores see one time throughout. Schedules need it: their slots are instants (a cron slot is a wall
 * time in a zone, a slot's task id names its instant), not times since the start.
 */
public final class Differential {
    private Differential() {
    }

    /** Compares two stores with default options; returns the (common) trace. */
    public static Trace compare(long seed, TaskStore storeA, VirtualClock clockA, TaskStore storeB,
                                VirtualClock clockB) {
        return compare(seed, storeA, clockA, storeB, clockB, SimulationOptions.create());
    }

    /** Compares two stores; throws {@link DifferentialFailure} at the first differing step. */
    public static Trace compare(long seed, TaskStore storeA, VirtualClock clockA, TaskStore storeB,
                                VirtualClock clockB, SimulationOptions options) {
        if (clockA.millis() != clockB.millis()) {
            throw new IllegalArgumentException("the two stores' clocks must read the same time, read "
                    + clockA.millis() + " and " + clockB.millis() + ": schedules' slots are instants");
        }
        Schedule schedule = Schedule.generate(seed, options.steps());
        SimulationRun a = new SimulationRun(schedule, storeA, clockA, options);
        SimulationRun b = new SimulationRun(schedule, storeB, clockB, options);
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
