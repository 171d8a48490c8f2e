package io.ordo.domain;

/** One worker identity; alive while its heartbeat is fresh. 1..200 characters, no control characters. */
public record ConsumerId(String value) {
    public static final int MAX_LENGTH = 200;

    public ConsumerId {
        Validate.text("consumer", value, MAX_LENGTH);
    }

    public static ConsumerId of(String value) {
        return new ConsumerId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
