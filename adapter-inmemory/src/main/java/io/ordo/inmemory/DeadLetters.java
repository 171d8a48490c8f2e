package io.ordo.inmemory;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.DeadLetterPage;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A queue's dead letters in the order they died, how many ever died and how many the caps deleted. Not
 * thread-safe: the store calls it under its monitor.
 */
final class DeadLetters {
    private final LinkedHashMap<TaskId, DeadLetter> letters = new LinkedHashMap<>();
    private long total;
    private long droppedTotal;

    /**
     * The task, its last error saying why it died, into the dead letters; then the oldest past the caps go,
     * at most {@link QueueSettings#DEAD_LETTERS_DROPPED_PER_DEATH}.
     */
    void bury(Task task, long now, QueueSettings settings) {
        letters.put(task.id(), new DeadLetter(task, task.lastError(), now));
        total++;
        trim(settings, now, QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH);
    }

    /** Deletes the oldest dead letters while the caps say so, at most {@code most}; how many it deleted. */
    long trim(QueueSettings settings, long now, long most) {
        long dropped = 0;
        Iterator<DeadLetter> oldestFirst = letters.values().iterator();
        while (dropped < most && oldestFirst.hasNext()
                && settings.dropsOldestDeadLetter(letters.size(), oldestFirst.next().deadAt(), now)) {
            oldestFirst.remove();
            dropped++;
        }
        droppedTotal += dropped;
        return dropped;
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

    /** Dead letters the caps deleted since the queue began. */
    long droppedTotal() {
        return droppedTotal;
    }
}
