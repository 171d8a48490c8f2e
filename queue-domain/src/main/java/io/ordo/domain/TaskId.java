package io.ordo.domain;

import java.util.UUID;

/** A task's id: caller-chosen (the idempotency key) or generated; 1..200 characters, no control characters. */
public record TaskId(String value) implements Comparable<TaskId> {
    public static final int MAX_LENGTH = 200;

    public TaskId {
        Validate.text("id", value, MAX_LENGTH);
    }

    public static TaskId of(String value) {
        return new TaskId(value);
    }

    /** A fresh random id, for callers that need no idempotency. */
    public static TaskId random() {
        return new TaskId(UUID.randomUUID().toString());
    }

    @Override
    public int compareTo(TaskId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
