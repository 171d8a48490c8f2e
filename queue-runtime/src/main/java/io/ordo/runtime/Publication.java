package io.ordo.runtime;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A typed payload on its way into a partition, with the id, priority, delay (or instant to run at) and
 * headers it will be published with, and optionally its type (null: the publisher's), its own attempts limit (0: the queue's),
 * its own backoff (null: the worker's) and its own processing timeout (zero: the queue's). The id is fixed when the publication is made, so a caller can retry a publish
 * of the same publication and get {@code DUPLICATE} instead of a second task.
 *
 * <pre>{@code
 * Publication.of(Partition.ordered("account-42"), new Deposit(100))
 *         .withId("deposit-7")
 *         .withPriority(5)
 *         .withDelay(Duration.ofSeconds(30))
 *         .withMaxAttempts(3);
 * }</pre>
 */
public record Publication<T>(TaskId id, Partition partition, T payload, Priority priority, Duration delay,
                             Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy,
                             Instant runAt, Duration timeout) {

    public Publication {
        Validate.notNull("id", id);
        Validate.notNull("partition", partition);
        Validate.notNull("payload", payload);
        Validate.notNull("priority", priority);
        Validate.duration("delay", delay, NewTask.MAX_DELAY);
        Validate.notNull("headers", headers);
        headers.forEach((name, value) -> {
            Validate.notNull("headers.name", name);
            Validate.notNull("headers[" + name + "]", value);
        });
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        if (type != null) {
            Validate.text("type", type, NewTask.MAX_TYPE_LENGTH);
        }
        if (maxAttempts != 0) {
            Validate.range("maxAttempts", maxAttempts, 1, QueueSettings.MAX_ATTEMPTS_LIMIT);
        }
        if (runAt != null && !delay.isZero()) {
            throw new io.ordo.domain.InvalidInputException("runAt", "give a delay or an instant to run at, not both");
        }
        Validate.notNull("timeout", timeout); // checked with the task (NewTask)
    }

    /** A publication with the queue's processing timeout. */
    public Publication(TaskId id, Partition partition, T payload, Priority priority, Duration delay,
                       Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy,
                       Instant runAt) {
        this(id, partition, payload, priority, delay, headers, type, maxAttempts, retryPolicy, runAt, Duration.ZERO);
    }

    /** A publication due {@code delay} after its publish. */
    public Publication(TaskId id, Partition partition, T payload, Priority priority, Duration delay,
                       Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy) {
        this(id, partition, payload, priority, delay, headers, type, maxAttempts, retryPolicy, null);
    }

    /** A publication with a fresh random id, the default priority, no delay and no headers. */
    public static <T> Publication<T> of(Partition partition, T payload) {
        return new Publication<>(TaskId.random(), partition, payload, Priority.DEFAULT, Duration.ZERO, Map.of(), null, 0,
                null);
    }

    /** The caller's id: the idempotency key of the task. */
    public Publication<T> withId(String newId) {
        return withId(TaskId.of(newId));
    }

    public Publication<T> withId(TaskId newId) {
        return new Publication<>(newId, partition, payload, priority, delay, headers, type, maxAttempts, retryPolicy, runAt, timeout);
    }

    public Publication<T> withPriority(int newPriority) {
        return new Publication<>(id, partition, payload, Priority.of(newPriority), delay, headers, type, maxAttempts, retryPolicy, runAt, timeout);
    }

    /** Due this long after publish (instead of an instant to run at). */
    public Publication<T> withDelay(Duration newDelay) {
        return new Publication<>(id, partition, payload, priority, newDelay, headers, type, maxAttempts, retryPolicy, null, timeout);
    }

    /** Due at this instant by the store's clock, at once if it has passed (instead of a delay). */
    public Publication<T> withRunAt(Instant newRunAt) {
        return new Publication<>(id, partition, payload, priority, Duration.ZERO, headers, type, maxAttempts, retryPolicy,
                Validate.notNull("runAt", newRunAt), timeout);
    }

    public Publication<T> withHeader(String name, String value) {
        Map<String, String> newHeaders = new LinkedHashMap<>(headers);
        newHeaders.put(name, value);
        return new Publication<>(id, partition, payload, priority, delay, newHeaders, type, maxAttempts, retryPolicy, runAt, timeout);
    }

    /** Published with this type instead of the publisher's (a worker routes by it: {@code TaskRouter}). */
    public Publication<T> withType(String newType) {
        return new Publication<>(id, partition, payload, priority, delay, headers, Validate.notNull("type", newType),
                maxAttempts, retryPolicy, runAt, timeout);
    }

    /** At most this many deliveries before it becomes a dead letter, in place of the queue's {@code maxAttempts}. */
    public Publication<T> withMaxAttempts(int newMaxAttempts) {
        return new Publication<>(id, partition, payload, priority, delay, headers, type,
                Validate.range("maxAttempts", newMaxAttempts, 1, QueueSettings.MAX_ATTEMPTS_LIMIT), retryPolicy, runAt, timeout);
    }

    /** Retried after this backoff instead of the worker's, when its handler throws. */
    public Publication<T> withRetryPolicy(RetryPolicy newRetryPolicy) {
        return new Publication<>(id, partition, payload, priority, delay, headers, type, maxAttempts,
                Validate.notNull("retryPolicy", newRetryPolicy), runAt, timeout);
    }

    /**
     * How long one delivery may be processed before the store takes it back though its worker lives, in place of
     * the queue's processing timeout (docs/task-control.md).
     */
    public Publication<T> withTimeout(Duration newTimeout) {
        return new Publication<>(id, partition, payload, priority, delay, headers, type, maxAttempts, retryPolicy, runAt,
                Validate.notNull("timeout", newTimeout));
    }
}
