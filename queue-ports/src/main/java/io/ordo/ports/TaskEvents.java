package io.ordo.ports;

/**
 * The queue's event log (docs/task-control.md, "Event log"): what became of its tasks — completed, failed,
 * dead-lettered, cancelled — in the order it happened, for any process to follow from a point. Off unless the
 * queue's {@code eventLogLength} is set; the log keeps that many of the latest events, no more. A consumer group
 * keeps a log of its own, of what its own consumers did.
 */
public interface TaskEvents extends QueueBound {
    /** Most events one read may ask for. */
    int MAX_EVENTS = 1000;

    /**
     * Up to {@code limit} (1..{@value #MAX_EVENTS}) events after {@code cursor}, oldest first: {@link
     * ListingCursor#START} reads from the oldest event kept, else a {@link TaskEventPage#next()} this store gave.
     * A follower passes on the page's {@code next}; {@link TaskEventPage#missed()} says whether the log dropped
     * events after the cursor before they could be read.
     */
    TaskEventPage events(String cursor, int limit);
}
