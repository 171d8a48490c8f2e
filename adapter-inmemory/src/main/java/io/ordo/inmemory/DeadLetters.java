package io.ordo.inmemory;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.DeadLetterPage;

import java.util.LinkedHashMap;
import java.util.List;

/** A queue's dead letters in the order they died, and how many ever died. Not thread-safe: the store calls it under its monitor. */
final class DeadLetters {
    private final LinkedHashMap<TaskId, DeadLetter> letters = new LinkedHashMap<>();
    private long total;

    /** The task, its last error saying why it died, into the dead letters. */
    void bury(Task task, long now) {
        letters.put(task.id(), new DeadLetter(task, task.lastError(), now));
        total++;
    }

    DeadLetter get(TaskId id) {
        return letters.get(id);
    }

    DeadLetter remove(TaskId id) {
        return letters.remove(id);
    }

    boolean contains(TaskId id) {
        return letters.containsKey(id);
    }

    DeadLetterPage page(int offset, int limit) {
        return new DeadLetterPage(letters.values().stream().skip(offset).limit(limit).toList(), letters.size(), offset);
    }

    List<TaskId> ids() {
        return List.copyOf(letters.keySet());
    }

    /** Deletes every dead letter; how many there were. */
    long purgeAll() {
        long count = letters.size();
        letters.clear();
        return count;
    }

    int size() {
        return letters.size();
    }

    boolean isEmpty() {
        return letters.isEmpty();
    }

    /** Tasks dead-lettered since the queue began. */
    long total() {
        return total;
    }
}
