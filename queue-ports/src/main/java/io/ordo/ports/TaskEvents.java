package io.ordo.ports;

/**
 * The queue's event log (docs/task-control.md, "Results and events"): what became of its tasks — completed,
 * failed, dead-lettered, cancelled — in the order it happened, for any process to follow from a point. Off
 * unless the queue's {@code eventLogLength} is set; the log keeps that many of the latest events, no more.
 */
public interface TaskEvents extends QueueBound {
    /** Most events one read may ask for. */
    int MAX_EVENTS = 1000;

    /**
     * Up to {@code limit} (1..{@value #MAX_EVENTS}) events after the seq {@code after} (0: from the oldest kept),
     * oldest first. A follower passes the last seq it read; {@link TaskEventPage#missedAfter} says whether the
     * log dropped some it had not read.
     */
    TaskEventPage events(long after, int limit);
}
