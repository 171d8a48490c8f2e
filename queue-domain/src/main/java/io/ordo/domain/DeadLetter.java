package io.ordo.domain;

/** A task that ran out of attempts or was failed explicitly, with why and when. */
public record DeadLetter(Task task, String reason, long deadAt) {
    public TaskId id() {
        return task.id();
    }

    public int attempts() {
        return task.attempts();
    }
}
