package io.ordo.inmemory;

import io.ordo.domain.Task;
import io.ordo.ports.EventLogCursor;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEventType;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * A view's event log (TaskEvents; docs/task-control.md, "Event log"): the latest events, at most the view's
 * {@code eventLogLength}, numbered from 1. As on Redis, a shorter length drops the excess at the next event, and
 * turning the log off drops it whole; the numbering goes on.
 */
final class EventLog {
    private final ArrayDeque<TaskEvent> kept = new ArrayDeque<>();
    private long latest;

    /** Notes what became of {@code task}, while the view keeps {@code length} events (0: no log). */
    void record(TaskEventType type, Task task, long now, String reason, int length) {
        if (length == 0) {
            return;
        }
        kept.addLast(new TaskEvent(++latest, type, task.id(), task.partition(), Instant.ofEpochMilli(now),
                Optional.ofNullable(reason).filter(text -> !text.isEmpty())));
        while (kept.size() > length) {
            kept.removeFirst();
        }
    }

    /** The view stopped keeping a log. */
    void clear() {
        kept.clear();
    }

    TaskEventPage read(String cursor, int limit) {
        long after = EventLogCursor.after(cursor);
        EventLogCursor.checkLimit(limit);
        long oldest = latest - kept.size() + 1;
        List<TaskEvent> events = new ArrayList<>();
        Iterator<TaskEvent> from = kept.iterator();
        for (long skip = Math.max(0, after + 1 - oldest); skip > 0 && from.hasNext(); skip--) {
            from.next();
        }
        while (from.hasNext() && events.size() < limit) {
            events.add(from.next());
        }
        return EventLogCursor.page(cursor, after, oldest, events);
    }
}
