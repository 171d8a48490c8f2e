package io.ordo.ports;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;

import java.time.Instant;
import java.util.Optional;

/**
 * One entry of the queue's event log.
 *
 * @param seq       its place in the log: 1 for the queue's first event, each next one more (in a sharded queue,
 *                  its place in its shard's log)
 * @param type      what happened
 * @param id        to which task
 * @param partition the task's partition
 * @param at        when, by the backend's clock
 * @param reason    the error of a failure or a dead-lettering; empty for the others
 */
public record TaskEvent(long seq, TaskEventType type, TaskId id, Partition partition, Instant at,
                        Optional<String> reason) {
}
