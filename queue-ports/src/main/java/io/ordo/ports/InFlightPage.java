package io.ordo.ports;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A page of the tasks in flight ({@link TaskListing#inFlightTasks}): each with its holder and lease
 * ({@link TaskSnapshot#holder()}, {@link TaskSnapshot#lease()}).
 *
 * @param tasks  the page, by holder name
 * @param next   the cursor of the next page; empty when the listing is done
 * @param readAt the backend's time of the reading
 */
public record InFlightPage(List<TaskSnapshot> tasks, Optional<String> next, Instant readAt) {
    public InFlightPage {
        tasks = List.copyOf(tasks);
    }
}
