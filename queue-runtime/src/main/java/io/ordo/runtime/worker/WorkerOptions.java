package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Validate;
import io.ordo.ports.TaskStore;

import java.time.Duration;
import java.util.Optional;

/**
 * How a worker runs. {@code WorkerOptions.create()} takes the defaults; {@code builder()} changes some.
 *
 * <ul>
 * <li>{@code concurrency}: handler threads. Regular tasks run in parallel on them; an ordered batch
 *     runs on one of them, task after task.</li>
 * <li>{@code prefetch}: the most tasks the worker holds at once, running or waiting for a thread
 *     (at least {@code concurrency}; default twice it).</li>
 * <li>{@code retryPolicy}: the backoff before retrying a task whose handler threw.</li>
 * <li>{@code gracePeriod}: how long shutdown waits for running handlers.</li>
 * <li>{@code cancelGrace}: how long the handler of a task whose cancellation was asked may keep its thread
 *     after {@link TaskContext#isCancelled()} turns true: it is interrupted halfway through, and its thread given
 *     up (replaced) at the end (default 5 s; docs/decisions/cancelling-running-tasks.md).</li>
 * <li>{@code fetchWait}: how long one fetch waits for work; also the longest shutdown waits for a
 *     fetch in progress.</li>
 * <li>{@code heartbeatInterval}, {@code reaperInterval}: default a third of the queue's heartbeat TTL.</li>
 * <li>{@code outageBackoff}: the pauses between attempts to reach an unreachable backend.</li>
 * <li>{@code groupAcks}: whether the acks of tasks that finish while an ack call is in flight go
 *     together in the next call (up to {@value #ACKS_PER_CALL}), rather than one call per task
 *     (default true; docs/decisions/worker-ack-grouping.md).</li>
 * <li>{@code ackOnFetch}: whether the acks of finished tasks ride on the worker's next fetch (one
 *     ack-and-consume call) when one comes soon, rather than going on their own (default true).</li>
 * <li>{@code fetchesInFlight}: fetch loops sharing the prefetch, so that while one fetch is on the
 *     wire another can carry acks and take more; only one of them waits for work when the queue is
 *     empty (default 2, at most {@value #MAX_FETCHES_IN_FLIGHT}; docs/decisions/worker-ack-on-fetch.md).</li>
 * </ul>
 */
public final class WorkerOptions {
    public static final int DEFAULT_CONCURRENCY = 4;
    public static final RetryPolicy DEFAULT_RETRY_POLICY = RetryPolicy.DEFAULT;
    public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofSeconds(30);
    public static final Duration DEFAULT_CANCEL_GRACE = Duration.ofSeconds(5);
    public static final Duration DEFAULT_FETCH_WAIT = Duration.ofSeconds(1);
    public static final RetryPolicy DEFAULT_OUTAGE_BACKOFF =
            new RetryPolicy(Duration.ofMillis(100), 2.0, Duration.ofSeconds(5), 0.5);
    public static final int MAX_CONCURRENCY = 1000;
    /** The most acks a grouped ack call carries: a call of 100 keeps the server busy for a few ms at most. */
    public static final int ACKS_PER_CALL = 100;
    public static final int DEFAULT_FETCHES_IN_FLIGHT = 2;
    public static final int MAX_FETCHES_IN_FLIGHT = 8;
    private static final Duration LONGEST_INTERVAL = Duration.ofHours(1);

    private final ConsumerId consumer;
    private final int concurrency;
    private final int prefetch;
    private final RetryPolicy retryPolicy;
    private final Duration gracePeriod;
    private final Duration cancelGrace;
    private final Duration fetchWait;
    private final Duration heartbeatInterval;
    private final Duration reaperInterval;
    private final RetryPolicy outageBackoff;
    private final boolean groupAcks;
    private final boolean ackOnFetch;
    private final int fetchesInFlight;

    private WorkerOptions(Builder builder) {
        consumer = builder.consumer != null ? builder.consumer : ConsumerNames.forThisProcess();
        concurrency = Validate.range("concurrency", builder.concurrency, 1, MAX_CONCURRENCY);
        int wanted = builder.prefetch != null ? builder.prefetch : Math.min(2 * concurrency, TaskStore.MAX_CONSUME);
        prefetch = Validate.range("prefetch", wanted, 1, TaskStore.MAX_CONSUME);
        if (prefetch < concurrency) {
            throw new InvalidInputException("prefetch",
                    "must be at least the concurrency " + concurrency + " (a thread without a task idles), was " + prefetch);
        }
        retryPolicy = Validate.notNull("retryPolicy", builder.retryPolicy);
        gracePeriod = Validate.duration("gracePeriod", builder.gracePeriod, LONGEST_INTERVAL);
        cancelGrace = Validate.duration("cancelGrace", builder.cancelGrace, LONGEST_INTERVAL);
        fetchWait = Validate.duration("fetchWait", builder.fetchWait, TaskStore.MAX_WAIT);
        heartbeatInterval = positiveOrNull("heartbeatInterval", builder.heartbeatInterval);
        reaperInterval = positiveOrNull("reaperInterval", builder.reaperInterval);
        outageBackoff = Validate.notNull("outageBackoff", builder.outageBackoff);
        groupAcks = builder.groupAcks;
        ackOnFetch = builder.ackOnFetch;
        fetchesInFlight = Validate.range("fetchesInFlight", builder.fetchesInFlight, 1, MAX_FETCHES_IN_FLIGHT);
    }

    public static WorkerOptions create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public ConsumerId consumer() {
        return consumer;
    }

    public int concurrency() {
        return concurrency;
    }

    public int prefetch() {
        return prefetch;
    }

    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    public Duration gracePeriod() {
        return gracePeriod;
    }

    /** How long a cancelled task's handler may keep its thread: interrupted halfway, given up at the end. */
    public Duration cancelGrace() {
        return cancelGrace;
    }

    public Duration fetchWait() {
        return fetchWait;
    }

    /** Set explicitly, or empty for a third of the queue's heartbeat TTL. */
    public Optional<Duration> heartbeatInterval() {
        return Optional.ofNullable(heartbeatInterval);
    }

    /** Set explicitly, or empty for a third of the queue's heartbeat TTL. */
    public Optional<Duration> reaperInterval() {
        return Optional.ofNullable(reaperInterval);
    }

    public RetryPolicy outageBackoff() {
        return outageBackoff;
    }

    /** Whether acks finishing during an ack call go together in the next one. */
    public boolean groupAcks() {
        return groupAcks;
    }

    /** Whether the acks of finished tasks ride on the next fetch when one comes soon. */
    public boolean ackOnFetch() {
        return ackOnFetch;
    }

    /** How many fetches may be in flight at once (only one of them waiting for work). */
    public int fetchesInFlight() {
        return fetchesInFlight;
    }

    @Override
    public String toString() {
        return "WorkerOptions[consumer=" + consumer + ", concurrency=" + concurrency + ", prefetch=" + prefetch
                + ", retryPolicy=" + retryPolicy + ", gracePeriod=" + gracePeriod + ", cancelGrace=" + cancelGrace + ", fetchWait=" + fetchWait + ", groupAcks=" + groupAcks
                + ", ackOnFetch=" + ackOnFetch + ", fetchesInFlight=" + fetchesInFlight + "]";
    }

    private static Duration positiveOrNull(String field, Duration value) {
        if (value == null) {
            return null;
        }
        Validate.duration(field, value, LONGEST_INTERVAL);
        if (value.toMillis() < 1) {
            throw new InvalidInputException(field, "must be at least 1 ms, was " + value);
        }
        return value;
    }

    public static final class Builder {
        private ConsumerId consumer;
        private int concurrency = DEFAULT_CONCURRENCY;
        private Integer prefetch;
        private RetryPolicy retryPolicy = DEFAULT_RETRY_POLICY;
        private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
        private Duration cancelGrace = DEFAULT_CANCEL_GRACE;
        private Duration fetchWait = DEFAULT_FETCH_WAIT;
        private Duration heartbeatInterval;
        private Duration reaperInterval;
        private RetryPolicy outageBackoff = DEFAULT_OUTAGE_BACKOFF;
        private boolean groupAcks = true;
        private boolean ackOnFetch = true;
        private int fetchesInFlight = DEFAULT_FETCHES_IN_FLIGHT;

        private Builder() {
        }

        /**
         * The consumer name, used as given (default: host name, process id and a tag of this start;
         * {@link ConsumerNames#startUnique} tags a name of your own).
         */
        public Builder consumer(ConsumerId value) {
            consumer = value;
            return this;
        }

        public Builder consumer(String value) {
            return consumer(ConsumerId.of(value));
        }

        public Builder concurrency(int value) {
            concurrency = value;
            return this;
        }

        public Builder prefetch(int value) {
            prefetch = value;
            return this;
        }

        public Builder retryPolicy(RetryPolicy value) {
            retryPolicy = value;
            return this;
        }

        public Builder gracePeriod(Duration value) {
            gracePeriod = value;
            return this;
        }

        /** Zero: a cancelled task's handler is interrupted as soon as the worker hears of the cancellation. */
        public Builder cancelGrace(Duration value) {
            cancelGrace = value;
            return this;
        }

        public Builder fetchWait(Duration value) {
            fetchWait = value;
            return this;
        }

        public Builder heartbeatInterval(Duration value) {
            heartbeatInterval = value;
            return this;
        }

        public Builder reaperInterval(Duration value) {
            reaperInterval = value;
            return this;
        }

        public Builder outageBackoff(RetryPolicy value) {
            outageBackoff = value;
            return this;
        }

        /** False: each task is acked by its own call as soon as its handler returns. */
        public Builder groupAcks(boolean value) {
            groupAcks = value;
            return this;
        }

        /** False: acks never ride on fetches; they go on their own as their handlers return. */
        public Builder ackOnFetch(boolean value) {
            ackOnFetch = value;
            return this;
        }

        public Builder fetchesInFlight(int value) {
            fetchesInFlight = value;
            return this;
        }

        public WorkerOptions build() {
            return new WorkerOptions(this);
        }
    }
}
