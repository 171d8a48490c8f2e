package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One queue's tasks, as the backend keeps them (SPEC.md, "Operations"). Every method is one
 * atomic step on the backend. Expected outcomes come back as values; exceptions mean bad input
 * ({@link io.ordo.domain.InvalidInputException}, nothing written) or broken infrastructure
 * ({@link QueueUnavailableException}, {@link QueueDataException}, {@link QueueCapacityException}).
 * Maps returned by the multi-id operations iterate in the order of the ids given (tasks returned
 * with their ordered batch follow, in key order).
 *
 * <p>An {@link io.ordo.domain.InvalidInputException} names the parameter at fault as declared here
 * ({@code consumer}, {@code max}, {@code wait}, {@code ids}, {@code acks}, {@code acks[i]}, {@code ids[i]}, {@code rejection},
 * {@code partition}, {@code duration}, {@code ttl}, {@code id}, {@code offset}, {@code limit},
 * {@code settings}), or the task at fault in a batch ({@code tasks[i]}, {@code tasks[i].payload}).
 */
public interface TaskStore {
    /** Largest {@code max} a consume may ask for. */
    int MAX_CONSUME = 1000;
    /** Longest a consume may wait. */
    Duration MAX_WAIT = Duration.ofMinutes(5);

    /** The queue this store serves. */
    QueueName queue();

    /** Publishes 1..10,000 tasks atomically; validates the whole batch first. Receipts in batch order. */
    List<PublishReceipt> publish(List<NewTask> tasks);

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
        Validate.notNull("consumer", consumer);
        PublishRules.ids("acks", acks);
        Validate.range("max", max, 0, MAX_CONSUME);
        Validate.duration("wait", wait, MAX_WAIT);
        Map<TaskId, AckOutcome> acked = acks.isEmpty() ? Map.of() : ack(consumer, acks);
        List<Lease> taken = max == 0 ? List.of() : consume(consumer, max, wait);
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

    /** Lifts a block at once. */
    void unblockPartition(Partition partition);

    /** Registers or refreshes a consumer; it is dead once {@code ttl} passes without another heartbeat or consume. */
    void heartbeat(ConsumerId consumer, Duration ttl);

    /** Returns the tasks of dead consumers (and of timed-out processing) to their partitions. */
    ReclaimReport reclaim();

    /** Deletes waiting (or dead) tasks; tasks in flight are left alone. */
    Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids);

    /** A task and its state, if it exists. */
    Optional<TaskSnapshot> get(TaskId id);

    /** Dead letters, oldest first. */
    DeadLetterPage deadLetters(int offset, int limit);

    /** Sends dead letters back to their partitions with attempts reset. */
    Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids);

    /** Sends every dead letter back; returns how many. */
    long redriveAll();

    /** Deletes the named dead letters; returns how many were deleted. */
    long purgeDeadLetters(Collection<TaskId> ids);

    /** Deletes every dead letter; returns how many. */
    long purgeAllDeadLetters();

    /** Counts and lag of the queue. */
    QueueStats stats();

    /** Busiest partitions, ordered locks, blocks and consumers, each list cut at {@code limit} (1..{@value QueueInspection#MAX_LIMIT}). */
    QueueInspection inspect(int limit);

    /** Stops delivering tasks from the whole queue (publishing still works). */
    void pause();

    /** Delivers again after a pause. */
    void resume();

    /** The queue's settings (defaults until configured). */
    QueueSettings settings();

    /** Stores new settings; every consumer uses them from its next operation on. */
    void configure(QueueSettings settings);
}
