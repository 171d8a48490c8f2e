package io.ordo.inmemory;

import io.ordo.domain.Partition;
import io.ordo.domain.Task;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The waiting tasks of one partition in key order, and its turn in the round-robin across partitions.
 * A regular partition also keeps its tasks apart by whether they were found ready, so its head is
 * found in O(log n) however many delayed tasks come before it in key order.
 */
final class PartitionState {
    static final long NO_TIMER = Long.MAX_VALUE;

    private static final Comparator<Task> BY_KEY = Comparator.comparing(Task::orderingKey);
    private static final Comparator<Task> BY_READY_AT = Comparator.comparingLong(Task::readyAt).thenComparing(BY_KEY);

    final Partition partition;
    /** Unique and fixed for the partition's life: breaks ties among partitions due at the same time. */
    final long serial;
    final TreeSet<Task> waiting = new TreeSet<>(BY_KEY);
    /** Regular partitions: the waiting tasks found ready, in key order. */
    private final TreeSet<Task> ready = new TreeSet<>(BY_KEY);
    /** Regular partitions: the waiting tasks not yet found ready, earliest first. */
    private final TreeSet<Task> notYetReady = new TreeSet<>(BY_READY_AT);
    long turn;

    // Where the store's schedule holds this partition; written only by WaitingTasks.refresh, which
    // takes the partition out of the sorted sets before changing what they sort by.
    boolean eligible;
    int headPriority;
    long timerAt = NO_TIMER;

    PartitionState(Partition partition, long turn) {
        this.partition = partition;
        this.serial = turn;
        this.turn = turn;
    }

    void add(Task task) {
        waiting.add(task);
        if (!partition.isOrdered()) {
            notYetReady.add(task); // found ready by the next look at the head
        }
    }

    void remove(Task task) {
        waiting.remove(task);
        if (!partition.isOrdered()) {
            ready.remove(task);
            notYetReady.remove(task);
        }
    }

    boolean isEmpty() {
        return waiting.isEmpty();
    }

    /**
     * The task a consume would take first: for a regular partition the lowest-key ready task; for an
     * ordered one the lowest-key task, but only if it is ready (head-of-line blocking). Time only moves
     * forward for a store, so a task once found ready stays ready.
     */
    /** An ordered partition's consecutive run of ready tasks from its head, in key order, at most {@code max}. */
    List<Task> readyRun(int max, long now) {
        List<Task> run = new ArrayList<>();
        for (Task task : waiting) {
            if (run.size() == max || !task.isReadyAt(now)) {
                break;
            }
            run.add(task);
        }
        return run;
    }

    Optional<Task> head(long now) {
        if (waiting.isEmpty()) {
            return Optional.empty();
        }
        if (partition.isOrdered()) {
            Task first = waiting.first();
            return first.isReadyAt(now) ? Optional.of(first) : Optional.empty();
        }
        while (!notYetReady.isEmpty() && notYetReady.first().isReadyAt(now)) {
            ready.add(notYetReady.pollFirst());
        }
        return ready.isEmpty() ? Optional.empty() : Optional.of(ready.first());
    }

    /**
     * The tasks a consume takes from, in the order it takes them (TaskListing.partitionTasks): an ordered
     * partition's every waiting task, a regular one's ready ones.
     */
    NavigableSet<Task> deliveryOrder(long now) {
        if (partition.isOrdered()) {
            return waiting;
        }
        head(now); // finds the tasks whose time has come
        return ready;
    }

    /** When time alone may change the head (a task becoming ready), after {@code now}; {@link #NO_TIMER} if never. */
    long nextChangeAfter(long now) {
        head(now);
        if (partition.isOrdered()) {
            return !waiting.isEmpty() && !waiting.first().isReadyAt(now) ? waiting.first().readyAt() : NO_TIMER;
        }
        return notYetReady.isEmpty() ? NO_TIMER : notYetReady.first().readyAt();
    }
}
