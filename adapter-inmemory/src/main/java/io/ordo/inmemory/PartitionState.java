package io.ordo.inmemory;

import io.ordo.domain.Partition;
import io.ordo.domain.Task;

import java.util.Comparator;
import java.util.Optional;
import java.util.TreeSet;

/** The waiting tasks of one partition in key order, and its turn in the round-robin across partitions. */
final class PartitionState {
    private static final Comparator<Task> BY_KEY = Comparator.comparing(Task::orderingKey);

    final Partition partition;
    final TreeSet<Task> waiting = new TreeSet<>(BY_KEY);
    long turn;

    PartitionState(Partition partition, long turn) {
        this.partition = partition;
        this.turn = turn;
    }

    /**
     * The task a consume would take first: for a regular partition the lowest-key ready task; for an
     * ordered one the lowest-key task, but only if it is ready (head-of-line blocking).
     */
    Optional<Task> head(long now) {
        if (waiting.isEmpty()) {
            return Optional.empty();
        }
        if (partition.isOrdered()) {
            Task first = waiting.first();
            return first.isReadyAt(now) ? Optional.of(first) : Optional.empty();
        }
        return waiting.stream().filter(task -> task.isReadyAt(now)).findFirst();
    }
}
