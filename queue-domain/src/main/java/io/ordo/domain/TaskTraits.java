package io.ordo.domain;

/**
 * The checks of what a task may carry beside its payload: its type, and its own attempts limit.
 * A retry policy checks itself when it is built.
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
}
