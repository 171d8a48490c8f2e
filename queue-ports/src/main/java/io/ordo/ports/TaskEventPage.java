package io.ordo.ports;

import java.util.List;

/**
 * Events of the queue's log after a cursor, oldest first.
 *
 * @param events the events read, in the order they happened
 * @param next   where a follower goes on from: after the last event read (the cursor given when none was)
 * @param missed whether the log dropped events after the cursor before they were read (its length is capped)
 */
public record TaskEventPage(List<TaskEvent> events, String next, boolean missed) {
    public TaskEventPage {
        events = List.copyOf(events);
    }
}
