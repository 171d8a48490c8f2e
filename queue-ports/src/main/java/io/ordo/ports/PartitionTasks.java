package io.ordo.ports;

import io.ordo.domain.Partition;
import io.ordo.domain.Task;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A partition as its page shows it ({@link TaskListing#partitionTasks}), read in one step.
 *
 * @param partition the partition
 * @param readAt    the backend's time of the reading
 * @param waiting   its waiting tasks, ready or not (as {@link QueueInspection#busiestPartitions()} counts them)
 * @param inFlight  its tasks in flight: known for an ordered partition (its holder's), and for a regular one while
 *                  the queue has a concurrency cap ({@code QueueSettings.hasConcurrencyCaps()}); empty otherwise,
 *                  as the store keeps no count of them then
 * @param lock      an ordered partition's holder, since when, and what it holds of it; empty when not held
 * @param block     the block in force, if any
 * @param head      the task it delivers first: {@code tasks}' first at offset 0 (an ordered head not ready yet
 *                  holds the partition back)
 * @param tasks     the page: the tasks it delivers from, in the order it delivers them
 * @param total     how many tasks that order holds in all (an ordered partition's waiting; a regular one's ready)
 * @param offset    where the page starts
 */
public record PartitionTasks(Partition partition, Instant readAt, long waiting, OptionalLong inFlight,
                             Optional<PartitionLock> lock, Optional<PartitionBlock> block, Optional<Task> head,
                             List<Task> tasks, long total, int offset) {
    public PartitionTasks {
        tasks = List.copyOf(tasks);
    }
}
