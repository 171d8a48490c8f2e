package io.ordo.simulation;

/**
 * How a simulation runs. Immutable; start from {@link #create()} or {@link #builder()}.
 *
 * @param steps         random steps per schedule (the closing drain steps come on top)
 * @param sweepEvery    every how many steps the checker reads every task back with {@code get} and lists the
 *                      dead letters (stats are compared after every step); 1 = always
 * @param traceTail     how many trace lines a failure message shows
 * @param replayCommand the command that replays one seed, with {@code {seed}} where the seed goes
 */
public record SimulationOptions(int steps, int sweepEvery, int traceTail, String replayCommand) {
    public static final int DEFAULT_STEPS = 200;
    public static final int DEFAULT_SWEEP_EVERY = 10;
    public static final int DEFAULT_TRACE_TAIL = 20;
    public static final String DEFAULT_REPLAY_COMMAND =
            "mvn -q -B test -pl adapter-inmemory -Dtest=InMemorySimulationTest -Dordo.simulation.seed={seed}";

    public SimulationOptions {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be at least 1, was " + steps);
        }
        if (sweepEvery < 1) {
            throw new IllegalArgumentException("sweepEvery must be at least 1, was " + sweepEvery);
        }
        if (traceTail < 0) {
            throw new IllegalArgumentException("traceTail must not be negative, was " + traceTail);
        }
        if (replayCommand == null || !replayCommand.contains("{seed}")) {
            throw new IllegalArgumentException("replayCommand must contain {seed}, was " + replayCommand);
        }
    }

    public static SimulationOptions create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().steps(steps).sweepEvery(sweepEvery).traceTail(traceTail).replayCommand(replayCommand);
    }

    /** The replay command for one seed. */
    public String replayCommandFor(long seed) {
        return replayCommand.replace("{seed}", Long.toString(seed));
    }

    public static final class Builder {
        private int steps = DEFAULT_STEPS;
        private int sweepEvery = DEFAULT_SWEEP_EVERY;
        private int traceTail = DEFAULT_TRACE_TAIL;
        private String replayCommand = DEFAULT_REPLAY_COMMAND;

        private Builder() {
        }

        public Builder steps(int value) {
            steps = value;
            return this;
        }

        public Builder sweepEvery(int value) {
            sweepEvery = value;
            return this;
        }

        public Builder traceTail(int value) {
            traceTail = value;
            return this;
        }

        public Builder replayCommand(String value) {
            replayCommand = value;
            return this;
        }

        public SimulationOptions build() {
            return new SimulationOptions(steps, sweepEvery, traceTail, replayCommand);
        }
    }
}
