package io.ordo.ports;

import io.ordo.domain.Validate;

import java.time.Instant;
import java.util.List;

/**
 * What an operator looks at beyond {@link QueueStats}: where the waiting work sits and who holds
 * what, read in one atomic step at the backend's clock. Each list is cut at the limit asked for;
 * the {@code total*} counts say how many there are in all.
 *
 * @param inspectedAt       the backend's time of the reading
 * @param busiestPartitions partitions with waiting tasks, most waiting first (ties: code ascending)
 * @param totalPartitions   partitions with at least one waiting task
 * @param locks             ordered partitions held by a consumer, longest held first
 * @param totalLocks        ordered partitions held in all
 * @param blocks            partitions blocked right now, soonest unblocked first
 * @param totalBlocks       partitions blocked in all
 * @param consumers         registered consumers, most recent heartbeat first (dead ones not yet reclaimed included)
 * @param totalConsumers    registered consumers in all
 */
public record QueueInspection(Instant inspectedAt,
                              List<PartitionBacklog> busiestPartitions, long totalPartitions,
                              List<PartitionLock> locks, long totalLocks,
                              List<PartitionBlock> blocks, long totalBlocks,
                              List<ConsumerPresence> consumers, long totalConsumers) {
    /** Largest limit an inspection may ask for. */
    public static final int MAX_LIMIT = 1000;

    /** An inspection's {@code limit}, checked once for every store: 1..{@link #MAX_LIMIT}. */
    public static int checkedLimit(int limit) {
        return Validate.range("limit", limit, 1, MAX_LIMIT);
    }

    public QueueInspection {
        busiestPartitions = List.copyOf(busiestPartitions);
        locks = List.copyOf(locks);
        blocks = List.copyOf(blocks);
        consumers = List.copyOf(consumers);
    }
}
