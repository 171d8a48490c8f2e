package io.ordo.simulation;

/** Thrown by the checker; the run turns it into a {@link SimulationFailure} with seed and trace. */
final class InvariantViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String invariant;

    InvariantViolation(String invariant, String detail) {
        super(detail, null, false, false);
        this.invariant = invariant;
    }

    /** Throws the violation of {@code invariant}, its detail formatted as {@link String#format} does. */
    static void fail(String invariant, String format, Object... args) {
        throw new InvariantViolation(invariant, String.format(format, args));
    }

    String invariant() {
        return invariant;
    }
}
