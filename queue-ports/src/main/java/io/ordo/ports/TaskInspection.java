package io.ordo.ports;

import io.ordo.domain.TaskId;

import java.util.Optional;

/** Reading the queue without changing it: gauges, probes and dashboards (see {@link TaskStore} for errors). */
public interface TaskInspection extends QueueBound {
    /** A task and its state, if it exists. */
    Optional<TaskSnapshot> get(TaskId id);

    /** Counts and lag of the queue. */
    QueueStats stats();

    /** Busiest partitions, ordered locks, blocks and consumers, each list cut at {@code limit} (1..{@value QueueInspection#MAX_LIMIT}). */
    QueueInspection inspect(int limit);
}
