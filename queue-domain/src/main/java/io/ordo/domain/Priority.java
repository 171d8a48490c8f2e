package io.ordo.domain;

/**
 * Higher goes first, within a partition and across partitions. The range is bounded so every
 * backend can order by exact integers (see docs/decisions/priority-range.md).
 */
public record Priority(int value) implements Comparable<Priority> {
    public static final int MIN = -1000;
    public static final int MAX = 1000;
    public static final Priority DEFAULT = new Priority(0);

    public Priority {
        Validate.range("priority", value, MIN, MAX);
    }

    public static Priority of(int value) {
        return new Priority(value);
    }

    @Override
    public int compareTo(Priority other) {
        return Integer.compare(value, other.value);
    }
}
