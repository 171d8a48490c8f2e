package io.ordo.ports;

import io.ordo.domain.Task;

import java.time.Instant;
import java.util.List;

/**
 * A page of an offset-paged task listing ({@link TaskListing#delayedTasks}).
 *
 * @param tasks  the page's tasks, in the listing's order
 * @param total  how many tasks the listing holds in all
 * @param offset where the page starts
 * @param readAt the backend's time of the reading
 */
public record TaskPage(List<Task> tasks, long total, int offset, Instant readAt) {
    public TaskPage {
        tasks = List.copyOf(tasks);
    }
}
