package io.ordo.ports;

import io.ordo.domain.ConsumerId;

import java.util.List;

/**
 * What a reclaim did: the consumers declared dead, tasks returned to their partitions, tasks
 * that ran out of attempts and became dead letters, and tasks taken back from live consumers
 * because they were in flight longer than the processing timeout.
 */
public record ReclaimReport(List<ConsumerId> deadConsumers, int returned, int deadLettered, int timedOut) {
    public static final ReclaimReport NOTHING = new ReclaimReport(List.of(), 0, 0, 0);

    public ReclaimReport {
        deadConsumers = List.copyOf(deadConsumers);
    }
}
