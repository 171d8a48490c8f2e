package io.ordo.ports;

import io.ordo.domain.Task;

import java.time.Instant;
import java.util.Objects;

/**
 * A completed task as the completed list shows it ({@link TaskListing#completedTasks}): the task, when it was
 * acked, until when it is kept and how large its result is. The result itself is not listed (a page of results
 * could be {@value TaskListing#MAX_PAGE} times the queue's {@code maxResultBytes}): {@link TaskInspection#get}
 * reads it with the task's {@link Completion}.
 *
 * @param task        the task as it completed
 * @param completedAt when it was acked
 * @param keptUntil   until when it is kept at least
 * @param resultBytes the size of its result in bytes, 0 when it kept none
 */
public record CompletedTask(Task task, Instant completedAt, Instant keptUntil, int resultBytes) {
    public CompletedTask {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(completedAt, "completedAt");
        Objects.requireNonNull(keptUntil, "keptUntil");
        if (resultBytes < 0) {
            throw new IllegalArgumentException("resultBytes must not be negative, was " + resultBytes);
        }
    }
}
