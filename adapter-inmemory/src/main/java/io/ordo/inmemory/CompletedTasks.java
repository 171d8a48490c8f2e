package io.ordo.inmemory;

import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.CompletedTask;
import io.ordo.ports.Completion;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskPageRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The acked tasks a queue that keeps results holds as completed (docs/task-control.md, "Results"), in the order
 * they completed, which is the order they expire in (one retention for the view at a time; a shorter retention
 * set later lets a later task expire first, and it waits for the earlier: never longer than the longest
 * retention), and in {@link TaskListing#COMPLETED_ORDER} for the list, so a page reads no more than its offset and
 * length. Not thread-safe: the store calls it under its monitor.
 */
final class CompletedTasks {
    record Kept(Task task, Completion completion, CompletedTask listed) {
    }

    private final LinkedHashMap<TaskId, Kept> kept = new LinkedHashMap<>();
    private final TreeSet<CompletedTask> listOrder = new TreeSet<>(TaskListing.COMPLETED_ORDER);

    void keep(Task task, long now, long retentionMillis, byte[] result) {
        remove(task.id());
        Instant completedAt = Instant.ofEpochMilli(now);
        Instant keptUntil = Instant.ofEpochMilli(now + retentionMillis);
        Kept done = new Kept(task, new Completion(completedAt, keptUntil, result),
                new CompletedTask(task, completedAt, keptUntil, result.length));
        kept.put(task.id(), done);
        listOrder.add(done.listed());
    }

    /** From {@code page.offset()}, up to {@code page.limit()} in {@link TaskListing#COMPLETED_ORDER}. */
    List<CompletedTask> page(TaskPageRequest page) {
        List<CompletedTask> tasks = new ArrayList<>(page.limit());
        Iterator<CompletedTask> inOrder = listOrder.iterator();
        for (int i = 0; i < page.end() && inOrder.hasNext(); i++) {
            CompletedTask next = inOrder.next();
            if (i >= page.offset()) {
                tasks.add(next);
            }
        }
        return tasks;
    }

    Kept get(TaskId id) {
        return kept.get(id);
    }

    boolean contains(TaskId id) {
        return kept.containsKey(id);
    }

    Kept remove(TaskId id) {
        Kept removed = kept.remove(id);
        if (removed != null) {
            listOrder.remove(removed.listed());
        }
        return removed;
    }

    int size() {
        return kept.size();
    }

    /** Deletes those kept past their time, oldest first; how many. */
    long expire(long now) {
        long expired = 0;
        Iterator<Map.Entry<TaskId, Kept>> oldestFirst = kept.entrySet().iterator();
        while (oldestFirst.hasNext()) {
            Kept oldest = oldestFirst.next().getValue();
            if (oldest.completion().keptUntil().toEpochMilli() > now) {
                break;
            }
            oldestFirst.remove();
            listOrder.remove(oldest.listed());
            expired++;
        }
        return expired;
    }
}
