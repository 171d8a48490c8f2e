package io.ordo.ports;

import java.util.List;

/**
 * Events of the queue's log after a point, oldest first.
 *
 * @param events the events read, in seq order
 * @param oldest the seq of the oldest event the log still keeps (its length is capped: older ones are gone);
 *               one more than {@code latest} when it keeps none
 * @param latest the seq of the latest event written, 0 when none ever was
 */
public record TaskEventPage(List<TaskEvent> events, long oldest, long latest) {
    public TaskEventPage {
        events = List.copyOf(events);
    }

    /** Where a follower goes on from: the last event read, or {@code after} when none was. */
    public long next(long after) {
        return events.isEmpty() ? after : events.get(events.size() - 1).seq();
    }

    /** Whether events after {@code after} were dropped before they could be read (the log moved past them). */
    public boolean missedAfter(long after) {
        return after + 1 < oldest && latest >= oldest;
    }
}
