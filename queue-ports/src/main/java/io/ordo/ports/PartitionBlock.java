package io.ordo.ports;

import io.ordo.domain.Partition;

import java.time.Instant;

/** A partition that delivers nothing until {@code until} (rate limiting). */
public record PartitionBlock(Partition partition, Instant until) {
}
