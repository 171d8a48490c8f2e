package io.ordo.simulation;

import java.util.SplittableRandom;

/**
 * The event log a schedule exercises (docs/task-control.md, "Event log"), in about a third of the seeds: a short
 * log (3 to 30 events, so its cap is reached) and reads of it now and then and after the drain, each read the
 * whole log, so a differential run compares what two stores told. Drawn from a stream of their own, so a seed
 * without them has the very schedule it had before they existed.
 */
final class EventLogSteps {
    private final SplittableRandom random;
    private final boolean enabled;
    private final int length;

    EventLogSteps(long seed) {
        this.random = new SplittableRandom(seed ^ 0x3C6EF372FE94F82AL);
        this.enabled = random.nextDouble() < 0.35;
        this.length = 3 + random.nextInt(28);
    }

    boolean enabled() {
        return enabled;
    }

    /** The log's length in this seed's settings: 0 (none) in seeds without it. */
    int length() {
        return enabled ? length : 0;
    }

    /** Whether the next step reads the log. */
    boolean next() {
        return enabled && random.nextDouble() < 0.04;
    }
}
