package io.ordo.inmemory;

import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.Completion;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The acked tasks a queue that keeps results holds as completed (docs/task-control.md, "Results"), in the order
 * they completed, which is the order they expire in (one retention for the view at a time; a shorter retention
 * set later lets a later task expire first, and it waits for the earlier: never longer than the longest
 * retention). Not thread-safe: the store calls it under its monitor.
 */
final class CompletedTasks {
    record Kept(Task task, Completion completion) {
    }

    private final LinkedHashMap<TaskId, Kept> kept = new LinkedHashMap<>();

    void keep(Task task, long now, long retentionMillis, byte[] result) {
        kept.remove(task.id());
        kept.put(task.id(), new Kept(task, new Completion(Instant.ofEpochMilli(now),
                Instant.ofEpochMilli(now + retentionMillis), result)));
    }

    Kept get(TaskId id) {
        return kept.get(id);
    }

    boolean contains(TaskId id) {
        return kept.containsKey(id);
    }

    Kept remove(TaskId id) {
        return kept.remove(id);
    }

    int size() {
        return kept.size();
    }

    /** Deletes those kept past their time, oldest first; how many. */
    long expire(long now) {
        long expired = 0;
        Iterator<Map.Entry<TaskId, Kept>> oldestFirst = kept.entrySet().iterator();
        while (oldestFirst.hasNext()) {
            if (oldestFirst.next().getValue().completion().keptUntil().toEpochMilli() > now) {
                break;
            }
            oldestFirst.remove();
            expired++;
        }
        return expired;
    }
}
