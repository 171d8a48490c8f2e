package io.ordo.ports;

import io.ordo.domain.Partition;

/**
 * One partition's waiting work.
 *
 * @param partition the partition
 * @param waiting   tasks waiting in it, due or not (in-flight tasks not counted)
 * @param due       of those, the tasks due now
 */
public record PartitionBacklog(Partition partition, long waiting, long due) {
}
