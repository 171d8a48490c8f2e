package io.ordo.inmemory;

import io.ordo.domain.Task;

import java.util.Comparator;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Every waiting task of a queue by the time it is ready, split into those found ready and those not
 * yet, so stats counts the ready ones and finds the oldest in O(log n) instead of reading every task.
 * Time only moves forward for a store, so a task once found ready stays ready.
 */
final class WaitingByReadyTime {
    private static final Comparator<Task> BY_READY_AT = Comparator.comparingLong(Task::readyAt)
            .thenComparingLong(Task::seq);

    private final TreeSet<Task> ready = new TreeSet<>(BY_READY_AT);
    private final TreeSet<Task> notYetReady = new TreeSet<>(BY_READY_AT);

    void add(Task task) {
        notYetReady.add(task);
    }

    void remove(Task task) {
        if (!ready.remove(task)) {
            notYetReady.remove(task);
        }
    }

    long readyCount(long now) {
        advance(now);
        return ready.size();
    }

    OptionalLong oldestReadyAt(long now) {
        advance(now);
        return ready.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ready.first().readyAt());
    }

    private void advance(long now) {
        while (!notYetReady.isEmpty() && notYetReady.first().isReadyAt(now)) {
            ready.add(notYetReady.pollFirst());
        }
    }
}
