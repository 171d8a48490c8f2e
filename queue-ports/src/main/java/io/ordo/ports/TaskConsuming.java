package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.PublishRules;
import io.ordo.domain.TaskId;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    /** Shortest and longest a lease extension may ask for (docs/task-control.md). */
    Duration MIN_LEASE_EXTENSION = Duration.ofSeconds(1);
    Duration MAX_LEASE_EXTENSION = Duration.ofDays(1);

    /** Takes up to {@code max} due tasks in queue order for the consumer, waiting up to {@code wait} for some. */
    List<Lease> consume(ConsumerId consumer, int max, Duration wait);

    /** Marks held tasks done and deletes them (or keeps them as completed: the queue's {@code resultRetention}). */
    Map<TaskId, AckOutcome> ack(ConsumerId consumer, Collection<TaskId> ids);

    /**
     * Acks held tasks as {@link #ack} does, each with its result: while the queue keeps results
     * ({@code resultRetention}), the completed task keeps it, for {@code get} to show; else the results are
     * dropped. Each result is at most the queue's {@code maxResultBytes} (field {@code results[id]}; nothing is
     * written when one is over), and at most a batch of them.
     */
    Map<TaskId, AckOutcome> complete(ConsumerId consumer, Map<TaskId, byte[]> results);

    /**
     * Acks the held tasks named, then takes up to {@code max} (0..{@value #MAX_CONSUME}) due tasks as
     * {@link #consume} does, waiting up to {@code wait} for some when none is there. A worker sends the acks
     * of the tasks that finished with its next fetch: one call instead of two. The acks and the first look
     * for tasks are one atomic step on the Redis and in-memory stores (the acks never wait); this default
     * makes the two calls one after the other, for stores that cannot do better (a sharded queue).
     * Nothing is written when an argument is invalid. The answer also names the tasks the consumer holds whose
     * cancellation was asked (empty from this default: the heartbeat says it).
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
    default void heartbeat(ConsumerId consumer, Duration ttl) {
        heartbeat(consumer, ttl, Map.of());
    }

    /**
     * Registers or refreshes a consumer as {@link #heartbeat(ConsumerId, Duration)} does, keeps the progress its
     * handlers reported for tasks it holds (others are ignored: at most {@value io.ordo.domain.PublishRules#MAX_BATCH} entries),
     * and answers the tasks it holds whose cancellation was asked (docs/task-control.md).
     */
    Set<TaskId> heartbeat(ConsumerId consumer, Duration ttl, Map<TaskId, Progress> progress);

    /**
     * Moves the deadline of held tasks to now plus {@code extension}
     * ({@link #MIN_LEASE_EXTENSION}..{@link #MAX_LEASE_EXTENSION}), in place of their own or the queue's
     * processing timeout, so a long task is not taken back while its holder lives; a later extension replaces
     * an earlier one. A task whose cancellation was asked is not extended.
     */
    Map<TaskId, ExtendOutcome> extendLease(ConsumerId consumer, Collection<TaskId> ids, Duration extension);
}
