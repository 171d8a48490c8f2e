package io.ordo.domain;

import java.time.Duration;

/**
 * The checks of what a task may carry beside its payload: its type, its own attempts limit and its own
 * processing timeout. A retry policy checks itself when it is built.
 */
final class TaskTraits {
    private TaskTraits() {
    }

    /** Refuses a type that is not a name, and an attempts limit outside 1..{@link QueueSettings}'s bound (0 = none). */
    static void check(String type, int maxAttempts) {
        if (type != null) {
            Validate.text("type", type, NewTask.MAX_TYPE_LENGTH);
        }
        if (maxAttempts != 0) {
            Validate.range("maxAttempts", maxAttempts, 1, QueueSettings.MAX_ATTEMPTS_LIMIT);
        }
    }

    /** Refuses a timeout that is negative, over a year, or shorter than a queue's may be (0 = none). */
    static Duration checkTimeout(Duration timeout) {
        Validate.duration("timeout", timeout, QueueSettings.MAX_DURATION);
        if (!timeout.isZero() && timeout.compareTo(QueueSettings.MIN_PROCESSING_TIMEOUT) < 0) {
            throw new InvalidInputException("timeout", "must be 0 (the queue's) or at least "
                    + QueueSettings.MIN_PROCESSING_TIMEOUT.toMillis() + " ms, was " + timeout.toMillis() + " ms");
        }
        return Duration.ofMillis(timeout.toMillis()); // stores keep milliseconds
    }
}
