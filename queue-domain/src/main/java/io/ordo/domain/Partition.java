package io.ordo.domain;

/**
 * Where a task lives. A code starting with {@code !} is ordered (one consumer at a time, strict
 * order); any other code is regular (drained in parallel). Use {@link #ordered} / {@link #regular}
 * so nobody has to type the {@code !}.
 */
public record Partition(String code) {
    public static final int MAX_LENGTH = 200;
    public static final String ORDERED_PREFIX = "!";

    public Partition {
        Validate.text("partition", code, MAX_LENGTH);
        if (code.equals(ORDERED_PREFIX)) {
            throw new InvalidInputException("partition", "an ordered partition needs a name after '!'");
        }
    }

    /** Parses a code as stored: {@code !x} is ordered, anything else regular. */
    public static Partition of(String code) {
        return new Partition(code);
    }

    public static Partition ordered(String name) {
        Validate.text("partition", name, MAX_LENGTH - 1);
        return new Partition(ORDERED_PREFIX + name);
    }

    public static Partition regular(String name) {
        Validate.text("partition", name, MAX_LENGTH);
        if (name.startsWith(ORDERED_PREFIX)) {
            throw new InvalidInputException("partition",
                    "a regular partition must not start with '!' (use Partition.ordered), was '" + name + "'");
        }
        return new Partition(name);
    }

    public boolean isOrdered() {
        return code.startsWith(ORDERED_PREFIX);
    }

    @Override
    public String toString() {
        return code;
    }
}
