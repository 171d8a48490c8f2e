package io.ordo.domain;

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
 */
public record Task(TaskId id, Partition partition, Priority priority, byte[] payload, Map<String, String> headers,
                   long seq, int attempts, long publishedAt, long dueAt, long readyAt, String lastError) {

    public Task {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(payload, "payload");
        headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
        payload = payload.clone();
    }

    /** The task a publish creates. */
    public static Task published(NewTask request, long seq, long now) {
        long due = now + request.delay().toMillis();
        return new Task(request.id(), request.partition(), request.priority(), request.payload(), request.headers(),
                seq, 0, now, due, due, null);
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

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public Task withAttempts(int newAttempts) {
        return new Task(id, partition, priority, payload, headers, seq, newAttempts, publishedAt, dueAt, readyAt, lastError);
    }

    /** Back in the partition after a reject: regular tasks move their due time, ordered ones keep their place. */
    public Task retriedAt(long newReadyAt, String reason) {
        long newDue = partition.isOrdered() ? dueAt : newReadyAt;
        return new Task(id, partition, priority, payload, headers, seq, attempts, publishedAt, newDue, newReadyAt,
                reason == null ? lastError : reason);
    }

    public Task withLastError(String reason) {
        return new Task(id, partition, priority, payload, headers, seq, attempts, publishedAt, dueAt, readyAt, reason);
    }

    /** A dead letter sent back: attempts reset, due now, priority and seq kept. */
    public Task redrivenAt(long now) {
        return new Task(id, partition, priority, payload, headers, seq, 0, publishedAt, now, now, lastError);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Task that && id.equals(that.id) && partition.equals(that.partition)
                && priority.equals(that.priority) && Arrays.equals(payload, that.payload)
                && headers.equals(that.headers) && seq == that.seq && attempts == that.attempts
                && publishedAt == that.publishedAt && dueAt == that.dueAt && readyAt == that.readyAt
                && Objects.equals(lastError, that.lastError);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, partition, priority, Arrays.hashCode(payload), headers, seq, attempts, publishedAt,
                dueAt, readyAt, lastError);
    }

    @Override
    public String toString() {
        return "Task[id=" + id + ", partition=" + partition + ", priority=" + priority.value() + ", seq=" + seq
                + ", attempts=" + attempts + ", dueAt=" + dueAt + ", readyAt=" + readyAt
                + ", payload=" + payload.length + " bytes" + (lastError == null ? "" : ", lastError=" + lastError) + "]";
    }
}
