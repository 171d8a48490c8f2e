package io.ordo.simulation;

import java.util.List;

/**
 * What a run observed: one canonical line per step (the step as resolved, its result, the queue's
 * stats after it). Two stores that behave the same give equal traces line by line.
 */
public record Trace(long seed, List<String> lines) {
    public Trace {
        lines = List.copyOf(lines);
    }

    /** The last {@code n} lines (all of them if fewer). */
    public List<String> tail(int n) {
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }

    @Override
    public String toString() {
        return "seed " + seed + "\n" + String.join("\n", lines);
    }
}
