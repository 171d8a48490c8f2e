package io.ordo.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A task as a caller publishes it. Valid once it exists; the payload limit that depends on the
 * queue's settings is checked by {@link PublishRules} when the batch is published.
 *
 * <p>A task falls due either a {@code delay} after its publish or at an instant ({@code runAt}), never
 * both: the store's clock decides when that is, and an instant already past is due at once.
 *
 * @param delay       how long after publish the task falls due (0 = now), at most one year
 * @param type        what kind of task it is, so a worker can route it to a handler; null when it has none
 * @param maxAttempts deliveries the task may have before it becomes a dead letter, in place of the queue's
 *                    {@code maxAttempts}; 0 = the queue's
 * @param retryPolicy the backoff a worker waits before retrying it, in place of the worker's; null = the worker's
 * @param runAt       the instant the task falls due, or null when it falls due after {@code delay}; before
 *                    {@link #LATEST_RUN_AT}
 * @param timeout     how long one delivery may be processed before the store takes it back, in place of the
 *                    queue's {@code processingTimeout}; {@link Duration#ZERO} = the queue's
 */
public record NewTask(TaskId id, Partition partition, Priority priority, byte[] payload, Duration delay,
                      Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy,
                      Instant runAt, Duration timeout) {
    public static final Duration MAX_DELAY = Duration.ofDays(365);
    /** {@code runAt} lies before this instant (and not before the epoch). */
    public static final Instant LATEST_RUN_AT = Instant.parse("3000-01-01T00:00:00Z");
    public static final int MAX_HEADERS = 32;
    public static final int MAX_HEADER_NAME_LENGTH = 100;
    public static final int MAX_HEADER_VALUE_LENGTH = 1000;
    public static final int MAX_TYPE_LENGTH = 100;

    public NewTask {
        Validate.notNull("id", id);
        Validate.notNull("partition", partition);
        Validate.notNull("priority", priority);
        Validate.notNull("payload", payload);
        Validate.duration("delay", delay, MAX_DELAY);
        if (runAt != null) {
            if (!delay.isZero()) {
                throw new InvalidInputException("runAt", "give a delay or an instant to run at, not both");
            }
            if (runAt.isBefore(Instant.EPOCH) || !runAt.isBefore(LATEST_RUN_AT)) {
                throw new InvalidInputException("runAt", "must lie in 1970-01-01T00:00:00Z.." + LATEST_RUN_AT
                        + " (exclusive), was " + runAt);
            }
            runAt = Instant.ofEpochMilli(runAt.toEpochMilli()); // stores keep milliseconds
        }
        Validate.notNull("headers", headers);
        if (headers.size() > MAX_HEADERS) {
            throw new InvalidInputException("headers", "at most " + MAX_HEADERS + " entries, was " + headers.size());
        }
        Map<String, String> copy = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            Validate.text("headers.name", name, MAX_HEADER_NAME_LENGTH);
            Validate.freeText("headers[" + name + "]", value, MAX_HEADER_VALUE_LENGTH);
            copy.put(name, value);
        });
        headers = Collections.unmodifiableMap(copy);
        payload = payload.clone();
        TaskTraits.check(type, maxAttempts);
        timeout = TaskTraits.checkTimeout(timeout);
    }

    /** A task with the queue's processing timeout. */
    public NewTask(TaskId id, Partition partition, Priority priority, byte[] payload, Duration delay,
                   Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy,
                   Instant runAt) {
        this(id, partition, priority, payload, delay, headers, type, maxAttempts, retryPolicy, runAt, Duration.ZERO);
    }

    /** A task due {@code delay} after its publish, with its type, attempts limit and backoff. */
    public NewTask(TaskId id, Partition partition, Priority priority, byte[] payload, Duration delay,
                   Map<String, String> headers, String type, int maxAttempts, RetryPolicy retryPolicy) {
        this(id, partition, priority, payload, delay, headers, type, maxAttempts, retryPolicy, null);
    }

    /** A task with no type and the queue's attempts and the worker's backoff. */
    public NewTask(TaskId id, Partition partition, Priority priority, byte[] payload, Duration delay,
                   Map<String, String> headers) {
        this(id, partition, priority, payload, delay, headers, null, 0, null, null);
    }

    /**
     * When the task falls due if published at {@code now} (epoch ms): {@code now + delay}, or its
     * {@code runAt}, or {@code now} when that instant has passed.
     */
    public long dueAt(long now) {
        return runAt == null ? now + delay.toMillis() : Math.max(now, runAt.toEpochMilli());
    }

    public Optional<String> typeIfAny() {
        return Optional.ofNullable(type);
    }

    public static Builder builder(Partition partition, byte[] payload) {
        return new Builder(partition, payload);
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * This task with {@code added} headers put over its own (a header of the same name is replaced);
     * checked like any task's, so more than {@link #MAX_HEADERS} in all is refused.
     */
    public NewTask withHeaders(Map<String, String> added) {
        Validate.notNull("headers", added);
        Map<String, String> merged = new LinkedHashMap<>(headers);
        merged.putAll(added);
        return new NewTask(id, partition, priority, payload, delay, merged, type, maxAttempts, retryPolicy, runAt,
                timeout);
    }

    /** The payload size without copying it. */
    public int payloadSize() {
        return payload.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NewTask that && id.equals(that.id) && partition.equals(that.partition)
                && priority.equals(that.priority) && Arrays.equals(payload, that.payload)
                && delay.equals(that.delay) && headers.equals(that.headers) && Objects.equals(type, that.type)
                && maxAttempts == that.maxAttempts && Objects.equals(retryPolicy, that.retryPolicy)
                && Objects.equals(runAt, that.runAt) && timeout.equals(that.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, partition, priority, Arrays.hashCode(payload), delay, headers, type, maxAttempts,
                retryPolicy, runAt, timeout);
    }

    @Override
    public String toString() {
        return "NewTask[id=" + id + ", partition=" + partition + ", priority=" + priority.value()
                + ", payload=" + payload.length + " bytes, delay=" + delay + (runAt == null ? "" : ", runAt=" + runAt)
                + ", headers=" + headers
                + (type == null ? "" : ", type=" + type) + (maxAttempts == 0 ? "" : ", maxAttempts=" + maxAttempts)
                + (retryPolicy == null ? "" : ", retryPolicy=" + retryPolicy)
                + (timeout.isZero() ? "" : ", timeout=" + timeout) + "]";
    }

    /** Fluent construction with defaults: random id, default priority, no delay (or a delay, or an instant), no headers, no type. */
    public static final class Builder {
        private final Partition partition;
        private final byte[] payload;
        private TaskId id;
        private Priority priority = Priority.DEFAULT;
        private Duration delay = Duration.ZERO;
        private Instant runAt;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private String type;
        private int maxAttempts;
        private RetryPolicy retryPolicy;
        private Duration timeout = Duration.ZERO;

        private Builder(Partition partition, byte[] payload) {
            this.partition = partition;
            this.payload = payload;
        }

        public Builder id(TaskId id) {
            this.id = id;
            return this;
        }

        public Builder id(String id) {
            return id(TaskId.of(id));
        }

        public Builder priority(int priority) {
            this.priority = Priority.of(priority);
            return this;
        }

        public Builder delay(Duration delay) {
            this.delay = delay;
            return this;
        }

        /** Falls due at {@code runAt} by the store's clock (at once if it has passed); instead of a delay. */
        public Builder runAt(Instant runAt) {
            this.runAt = Validate.notNull("runAt", runAt);
            return this;
        }

        public Builder header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** What kind of task it is (null: none). */
        public Builder type(String type) {
            this.type = type;
            return this;
        }

        /** Deliveries it may have before it becomes a dead letter, in place of the queue's (0: the queue's). */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** The backoff before its retries, in place of the worker's (null: the worker's). */
        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = retryPolicy;
            return this;
        }

        /** How long one delivery may be processed, in place of the queue's processing timeout (0: the queue's). */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public NewTask build() {
            return new NewTask(id == null ? TaskId.random() : id, partition, priority, payload, delay, headers, type,
                    maxAttempts, retryPolicy, runAt, timeout);
        }
    }
}
