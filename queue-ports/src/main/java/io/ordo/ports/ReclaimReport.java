package io.ordo.ports;

import io.ordo.domain.ConsumerId;

import java.util.List;

/**
 * What a reclaim did: the consumers declared dead, tasks returned to their partitions, tasks
 * that ran out of attempts and became dead letters, tasks taken back from live consumers
 * because they were in flight longer than their processing timeout, and tasks taken back whose
 * cancellation had been asked, which are deleted (counted in none of the others).
 */
public record ReclaimReport(List<ConsumerId> deadConsumers, int returned, int deadLettered, int timedOut,
                            int cancelled) {
    public static final ReclaimReport NOTHING = new ReclaimReport(List.of(), 0, 0, 0, 0);

    public ReclaimReport {
        deadConsumers = List.copyOf(deadConsumers);
    }

    public ReclaimReport(List<ConsumerId> deadConsumers, int returned, int deadLettered, int timedOut) {
        this(deadConsumers, returned, deadLettered, timedOut, 0);
    }
}
