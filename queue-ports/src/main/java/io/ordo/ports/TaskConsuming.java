package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.TaskId;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Taking tasks and saying what became of them: what a worker needs, besides the reaper
 * ({@link QueueMaintenance}). Consumers stay alive by heartbeat or by consuming; a rate-limited
 * handler blocks its partition (see {@link TaskStore} for errors and parameter names).
 */
public interface TaskConsuming extends QueueBound {
    /** Largest {@code max} a consume may ask for. */
    int MAX_CONSUME = 1000;
    /** Longest a consume may wait. */
    Duration MAX_WAIT = Duration.ofMinutes(5);

    /** Takes up to {@code max} due tasks in queue order for the consumer, waiting up to {@code wait} for some. */
    List<Lease> consume(ConsumerId consumer, int max, Duration wait);

    /** Marks held tasks done and deletes them. */
    Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids);

    /**
     * Acks the held tasks named, then takes up to {@code max} (0..{@value #MAX_CONSUME}) due tasks as
     * {@link #consume} does, waiting up to {@code wait} for some when none is there. A worker sends the acks
     * of the tasks that finished with its next fetch: one call instead of two. The acks and the first look
     * for tasks are one atomic step on the Redis and in-memory stores (the acks never wait); this default
     * makes the two calls one after the other, for stores that cannot do better (a sharded queue).
     * Nothing is written when an argument is invalid.
     */
    default AckedAndTaken ackAndConsume(ConsumerId consumer, Collection<TaskId> acks, int max, Duration wait) {
        ConsumeRequest request = new ConsumeRequest(consumer, max, wait);
        PublishRules.ids("acks", acks);
        Map<TaskId, AckOutcome> acked = acks.isEmpty() ? Map.of() : ack(consumer, acks);
        List<Lease> taken = request.takesNone() ? List.of() : consume(consumer, max, wait);
        return new AckedAndTaken(acked, taken);
    }

    /** Returns held tasks to their original positions, due after the delay; out of attempts means dead letter. */
    Map<TaskId, RejectOutcome> reject(ConsumerId consumer, Collection<TaskId> ids, Rejection rejection);

    /** Sends held tasks straight to the dead letters (a non-retryable error). */
    Map<TaskId, FailOutcome> fail(ConsumerId consumer, Collection<TaskId> ids, String reason);

    /** Returns held, unprocessed tasks at once, at their positions, without counting the attempt (shutdown). */
    Map<TaskId, ReleaseOutcome> release(ConsumerId consumer, Collection<TaskId> ids);

    /** Delivers nothing from the partition until the duration has passed. */
    void blockPartition(Partition partition, Duration duration);

    /** Registers or refreshes a consumer; it is dead once {@code ttl} passes without another heartbeat or consume. */
    void heartbeat(ConsumerId consumer, Duration ttl);
}
