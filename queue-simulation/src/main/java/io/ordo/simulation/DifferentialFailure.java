package io.ordo.simulation;

import java.util.List;

/** Two stores ran the same seed and observed something different at one step. */
public final class DifferentialFailure extends SimulationFailure {
    private static final long serialVersionUID = 1L;

    private final String lineA;
    private final String lineB;

    private DifferentialFailure(long seed, int step, String message, String lineA, String lineB) {
        super(seed, step, Invariant.SAME_BEHAVIOUR, message, null);
        this.lineA = lineA;
        this.lineB = lineB;
    }

    static DifferentialFailure of(long seed, int step, String nameA, String lineA, String nameB, String lineB,
                                  List<String> commonTail, String replay) {
        StringBuilder text = new StringBuilder();
        text.append("stores differ: seed ").append(seed).append(", step ").append(step).append('\n');
        text.append("  ").append(nameA).append(": ").append(lineA).append('\n');
        text.append("  ").append(nameB).append(": ").append(lineB).append('\n');
        appendTail(text, commonTail);
        text.append("  replay:    ").append(replay);
        return new DifferentialFailure(seed, step, text.toString(), lineA, lineB);
    }

    /** The first store's line at the differing step. */
    public String lineA() {
        return lineA;
    }

    /** The second store's line at the differing step. */
    public String lineB() {
        return lineB;
    }
}
