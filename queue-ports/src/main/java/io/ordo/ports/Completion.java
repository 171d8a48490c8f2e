package io.ordo.ports;

import java.time.Instant;
import java.util.Arrays;

/**
 * A completed task as a queue that keeps results holds it (docs/task-control.md, "Results").
 *
 * @param completedAt when it was acked
 * @param keptUntil   until when it is kept at least: the next maintenance after it deletes it
 * @param result      what its worker kept with it, possibly empty
 */
public record Completion(Instant completedAt, Instant keptUntil, byte[] result) {
    public Completion {
        result = result.clone();
    }

    @Override
    public byte[] result() {
        return result.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Completion that && completedAt.equals(that.completedAt)
                && keptUntil.equals(that.keptUntil) && Arrays.equals(result, that.result);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * completedAt.hashCode() + keptUntil.hashCode()) + Arrays.hashCode(result);
    }

    @Override
    public String toString() {
        return "Completion[completedAt=" + completedAt + ", keptUntil=" + keptUntil + ", result=" + result.length
                + " bytes]";
    }
}
