package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;

import java.time.Instant;

/**
 * An ordered partition held by a consumer (docs/contract.md, ordering rule 1).
 *
 * @param partition the ordered partition
 * @param holder    the consumer holding it
 * @param since     when the holder took it
 * @param inFlight  tasks of the partition the holder has in flight
 */
public record PartitionLock(Partition partition, ConsumerId holder, Instant since, long inFlight) {
}
