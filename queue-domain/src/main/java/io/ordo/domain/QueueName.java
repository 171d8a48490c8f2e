package io.ordo.domain;

import java.util.regex.Pattern;

/**
 * A queue's name: 1..100 of {@code A-Z a-z 0-9 . _ -}. The set is narrow on purpose: the name is
 * the Redis hash tag of every key of the queue, so braces and {@code #} (shard suffix) are out.
 */
public record QueueName(String value) {
    public static final int MAX_LENGTH = 100;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]+");

    public QueueName {
        Validate.text("queue", value, MAX_LENGTH);
        if (!ALLOWED.matcher(value).matches()) {
            throw new InvalidInputException("queue",
                    "may contain only letters, digits, '.', '_' and '-', was '" + value + "'");
        }
    }

    public static QueueName of(String value) {
        return new QueueName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
