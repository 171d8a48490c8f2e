package io.ordo.simulation;

import java.util.List;

/**
 * A seed that broke an invariant (or made the store throw). The message carries everything needed
 * to understand and replay it: seed, step, the violated invariant, the last trace lines and a
 * one-line command.
 */
public class SimulationFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final long seed;
    private final int step;
    private final String invariant;

    SimulationFailure(long seed, int step, String invariant, String message, Throwable cause) {
        super(message, cause);
        this.seed = seed;
        this.step = step;
        this.invariant = invariant;
    }

    static SimulationFailure of(long seed, int step, String stepText, String invariant, String detail,
                                List<String> tail, String replay, Throwable cause) {
        StringBuilder text = new StringBuilder();
        text.append("simulation failed: seed ").append(seed).append(", step ").append(step).append('\n');
        text.append("  step:      ").append(stepText).append('\n');
        text.append("  invariant: ").append(invariant).append('\n');
        text.append("  detail:    ").append(detail).append('\n');
        appendTail(text, tail);
        text.append("  replay:    ").append(replay);
        return new SimulationFailure(seed, step, invariant, text.toString(), cause);
    }

    static void appendTail(StringBuilder text, List<String> tail) {
        if (!tail.isEmpty()) {
            text.append("  last ").append(tail.size()).append(" trace lines:\n");
            for (String line : tail) {
                text.append("    ").append(line).append('\n');
            }
        }
    }

    public long seed() {
        return seed;
    }

    /** The index of the step that failed (0 is the configure step). */
    public int step() {
        return step;
    }

    /** The invariant that was violated, e.g. {@link Invariant#NO_TASK_LOST}. */
    public String invariant() {
        return invariant;
    }
}
