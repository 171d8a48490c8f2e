package io.ordo.inmemory;

import io.ordo.domain.Task;
import io.ordo.ports.TaskListing;

import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Every waiting task of a queue by the time it is ready, split into those found ready and those not
 * yet, so stats counts the ready ones and finds the oldest in O(log n) instead of reading every task, and the
 * tasks not ready yet are listed in their order ({@link TaskListing#DELAYED_ORDER}: ids are unique among them).
 * Time only moves forward for a store, so a task once found ready stays ready.
 */
final class WaitingByReadyTime {
    private static final Comparator<Task> BY_READY_AT = TaskListing.DELAYED_ORDER;

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

    /** How many are not ready at {@code now}. */
    long notReadyCount(long now) {
        advance(now);
        return notYetReady.size();
    }

    /** The tasks not ready at {@code now}, soonest first, from {@code offset}, at most {@code limit}. */
    List<Task> notReady(long now, int offset, int limit) {
        advance(now);
        return notYetReady.stream().skip(offset).limit(limit).toList();
    }

    private void advance(long now) {
        while (!notYetReady.isEmpty() && notYetReady.first().isReadyAt(now)) {
            ready.add(notYetReady.pollFirst());
        }
    }
}
