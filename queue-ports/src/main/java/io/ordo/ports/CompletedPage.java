package io.ordo.ports;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A page of the completed tasks ({@link TaskListing#completedTasks}).
 *
 * @param tasks           the page, in {@link TaskListing#COMPLETED_ORDER}
 * @param total           how many completed tasks the queue keeps in all
 * @param offset          where the page starts
 * @param resultRetention the queue's {@code resultRetention} at the reading: zero when it keeps no results (tasks
 *                        completed before it was turned off are still listed until they expire)
 * @param readAt          the backend's time of the reading
 */
public record CompletedPage(List<CompletedTask> tasks, long total, int offset, Duration resultRetention,
                            Instant readAt) {
    public CompletedPage {
        tasks = List.copyOf(tasks);
    }

    /** Whether the queue keeps the results of the tasks acked from now on. */
    public boolean resultsKept() {
        return !resultRetention.isZero();
    }
}
