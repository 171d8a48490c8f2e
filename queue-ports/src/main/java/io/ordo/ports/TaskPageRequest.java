package io.ordo.ports;

import io.ordo.domain.Validate;

/**
 * Which page of an offset-paged task listing is asked for ({@link TaskListing#partitionTasks},
 * {@link TaskListing#delayedTasks}, {@link TaskListing#completedTasks}), checked here once for every store: from
 * {@code offset} (0..{@value TaskListing#MAX_OFFSET}), {@code limit} of them (1..{@value TaskListing#MAX_PAGE}).
 */
public record TaskPageRequest(int offset, int limit) {
    public TaskPageRequest {
        Validate.range("offset", offset, 0, TaskListing.MAX_OFFSET);
        Validate.range("limit", limit, 1, TaskListing.MAX_PAGE);
    }

    /** How many tasks from the front the page reaches. */
    public int end() {
        return offset + limit;
    }
}
