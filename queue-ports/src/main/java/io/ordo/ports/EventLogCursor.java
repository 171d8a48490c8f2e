package io.ordo.ports;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Validate;

import java.util.List;

/**
 * The cursor of one event log (a store that is not sharded): the seq of the last event read, and the page a
 * read after it makes. Every store that keeps a log of its own reads and writes its cursors here.
 */
public final class EventLogCursor {
    private EventLogCursor() {
    }

    /** The seq a cursor reads after: 0 for {@link ListingCursor#START}; a bad cursor names {@code cursor}. */
    public static long after(String cursor) {
        List<String> parts = ListingCursor.parts(cursor, 1);
        if (parts.isEmpty()) {
            return 0;
        }
        try {
            long seq = Long.parseLong(parts.get(0));
            if (seq >= 0) {
                return seq;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new InvalidInputException("cursor", "is not a cursor this event log gave; start again with an empty one");
    }

    /** The cursor after the event {@code seq}. */
    public static String of(long seq) {
        return ListingCursor.of(Long.toString(seq));
    }

    /** Checks a read's {@code limit}: 1..{@value TaskEvents#MAX_EVENTS}. */
    public static void checkLimit(int limit) {
        Validate.range("limit", limit, 1, TaskEvents.MAX_EVENTS);
    }

    /**
     * The page of events read after {@code after}, while the log keeps events from {@code oldest} on (one more
     * than the latest when it keeps none): a follower missed events when the log dropped some after its cursor.
     */
    public static TaskEventPage page(String cursor, long after, long oldest, List<TaskEvent> events) {
        String next = events.isEmpty() ? cursor : of(events.get(events.size() - 1).seq());
        return new TaskEventPage(events, next, after + 1 < oldest);
    }
}
