package io.ordo.domain;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A task as the queue holds it.
 *
 * @param seq         per-queue publish counter: the last tie-break of the ordering key
 * @param attempts    deliveries so far
 * @param publishedAt epoch ms of publish (backend clock)
 * @param dueAt       epoch ms the ordering key uses: publish time plus delay; a retry in a regular
 *                    partition moves it, a retry in an ordered partition does not
 * @param readyAt     epoch ms before which the task is not delivered (equals dueAt except for an
 *                    ordered task waiting for a retry, which then blocks its partition)
 * @param lastError   reason of the last reject or failure, or null
 * @param reclaimCause why reclaim took the task back, when it gave the last error; null when the last
 *                    error came from anything else, or there is none
 * @param type        what kind of task it is (a worker routes by it), or null; kept as published
 * @param maxAttempts the task's own attempts limit, in place of the queue's; 0 = the queue's
 * @param retryPolicy the task's own backoff, in place of the worker's; null = the worker's
 * @param timeout     the task's own processing timeout, in place of the queue's; {@link Duration#ZERO} = the queue's
 */
public record Task(TaskId id, Partition partition, Priority priority, byte[] payload, Map<String, String> headers,
                   long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError,
                   ReclaimCause reclaimCause, String type, int maxAttempts, RetryPolicy retryPolicy, Duration timeout) {

    public Task {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(payload, "payload");
        headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
        payload = payload.clone();
        Objects.requireNonNull(timeout, "timeout");
    }

    /** A task with the queue's processing timeout. */
    public Task(TaskId id, Partition partition, Priority priority, byte[] payload, Map<String, String> headers,
                long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError,
                ReclaimCause reclaimCause, String type, int maxAttempts, RetryPolicy retryPolicy) {
        this(id, partition, priority, payload, headers, seq, attempts, publishedAt, dueAt, readyAt, lastError,
                reclaimCause, type, maxAttempts, retryPolicy, Duration.ZERO);
    }

    /** A task with no type, the queue's attempts limit and the worker's backoff. */
    public Task(TaskId id, Partition partition, Priority priority, byte[] payload, Map<String, String> headers,
                long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError,
                ReclaimCause reclaimCause) {
        this(id, partition, priority, payload, headers, seq, attempts, publishedAt, dueAt, readyAt, lastError,
                reclaimCause, null, 0, null, Duration.ZERO);
    }

    /** A task whose last error, if any, was not given by reclaim. */
    public Task(TaskId id, Partition partition, Priority priority, byte[] payload, Map<String, String> headers,
                long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError) {
        this(id, partition, priority, payload, headers, seq, attempts, publishedAt, dueAt, readyAt, lastError, null);
    }

    /** The task a publish creates. */
    public static Task published(NewTask request, long seq, long now) {
        long due = request.dueAt(now);
        return new Task(request.id(), request.partition(), request.priority(), request.payload(), request.headers(),
                seq, 0, now, due, due, null, null, request.type(), request.maxAttempts(), request.retryPolicy(),
                request.timeout());
    }

    public OrderingKey orderingKey() {
        return new OrderingKey(priority.value(), dueAt, seq);
    }

    public boolean isReadyAt(long now) {
        return readyAt <= now;
    }

    public Optional<String> lastErrorIfAny() {
        return Optional.ofNullable(lastError);
    }

    /** Why reclaim took the task back last, if its last error came from reclaim. */
    public Optional<ReclaimCause> reclaimCauseIfAny() {
        return Optional.ofNullable(reclaimCause);
    }

    /** Whether the task's last holder died or timed out while holding it. */
    public boolean wasReclaimed() {
        return reclaimCause != null;
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public Optional<String> typeIfAny() {
        return Optional.ofNullable(type);
    }

    /** The deliveries the task may have: its own limit if it has one, else the queue's {@code queueMaxAttempts}. */
    public int maxAttemptsOr(int queueMaxAttempts) {
        return maxAttempts == 0 ? queueMaxAttempts : maxAttempts;
    }

    /** How long one delivery may be processed: the task's own timeout if it has one, else {@code queueTimeout}. */
    public Duration timeoutOr(Duration queueTimeout) {
        return timeout.isZero() ? queueTimeout : timeout;
    }

    /** The backoff before the task's retries: its own if it has one, else {@code workerPolicy}. */
    public RetryPolicy retryPolicyOr(RetryPolicy workerPolicy) {
        return retryPolicy == null ? workerPolicy : retryPolicy;
    }

    /**
     * The task as another consumer group receives it from this one's backlog (docs/groups.md): its place and
     * due time kept, its attempts counted anew and no last error.
     */
    public Task anew() {
        return with(0, dueAt, readyAt, null, null);
    }

    public Task withAttempts(int newAttempts) {
        return with(newAttempts, dueAt, readyAt, lastError, reclaimCause);
    }

    private Task with(int newAttempts, long newDueAt, long newReadyAt, String newLastError, ReclaimCause newCause) {
        return new Task(id, partition, priority, payload, headers, seq, newAttempts, publishedAt, newDueAt, newReadyAt,
                newLastError, newCause, type, maxAttempts, retryPolicy, timeout);
    }

    /** Back in the partition after a reject: regular tasks move their due time, ordered ones keep their place. */
    public Task retriedAt(long newReadyAt, String reason) {
        long newDue = partition.isOrdered() ? dueAt : newReadyAt;
        return reason == null
                ? with(attempts, newDue, newReadyAt, lastError, reclaimCause)
                : with(attempts, newDue, newReadyAt, reason, null);
    }

    /** The last error set by anything but reclaim. */
    public Task withLastError(String reason) {
        return with(attempts, dueAt, readyAt, reason, null);
    }

    /** The last error reclaim gives when it takes the task back, with why it did. */
    public Task reclaimed(String reason, ReclaimCause cause) {
        Objects.requireNonNull(cause, "cause");
        return with(attempts, dueAt, readyAt, reason, cause);
    }

    /** A dead letter sent back: attempts reset, due now, priority and seq kept. */
    public Task redrivenAt(long now) {
        return with(0, now, now, lastError, reclaimCause);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Task that && id.equals(that.id) && partition.equals(that.partition)
                && priority.equals(that.priority) && Arrays.equals(payload, that.payload)
                && headers.equals(that.headers) && seq == that.seq && attempts == that.attempts
                && publishedAt == that.publishedAt && dueAt == that.dueAt && readyAt == that.readyAt
                && Objects.equals(lastError, that.lastError) && reclaimCause == that.reclaimCause
                && Objects.equals(type, that.type) && maxAttempts == that.maxAttempts
                && Objects.equals(retryPolicy, that.retryPolicy) && timeout.equals(that.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, partition, priority, Arrays.hashCode(payload), headers, seq, attempts, publishedAt,
                dueAt, readyAt, lastError, reclaimCause, type, maxAttempts, retryPolicy, timeout);
    }

    @Override
    public String toString() {
        return "Task[id=" + id + ", partition=" + partition + ", priority=" + priority.value() + ", seq=" + seq
                + ", attempts=" + attempts + ", dueAt=" + dueAt + ", readyAt=" + readyAt
                + ", payload=" + payload.length + " bytes" + (lastError == null ? "" : ", lastError=" + lastError)
                + (reclaimCause == null ? "" : ", reclaimCause=" + reclaimCause)
                + (type == null ? "" : ", type=" + type) + (maxAttempts == 0 ? "" : ", maxAttempts=" + maxAttempts)
                + (retryPolicy == null ? "" : ", retryPolicy=" + retryPolicy)
                + (timeout.isZero() ? "" : ", timeout=" + timeout) + "]";
    }
}
