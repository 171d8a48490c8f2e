package io.ordo.domain;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings kept with the queue so every client and worker agrees.
 *
 * @param maxAttempts       deliveries before a rejected or reclaimed task goes to the dead letters
 * @param processingTimeout a task in flight longer than this is reclaimed even if its consumer lives; zero = off
 * @param dedupWindow       how long an acked task's id is remembered so a re-publish is a duplicate; zero = off
 * @param heartbeatTtl      how long a consumer stays alive after its last heartbeat or consume
 * @param maxPayloadBytes   the largest payload a publish accepts
 * @param partitionConcurrency the most tasks of one regular partition in flight at once; 0 = no cap
 *                          (ordered partitions are always processed one batch at a time)
 * @param partitionConcurrencyOverrides per regular partition, a cap replacing {@code partitionConcurrency}
 * @param queueConcurrency  the most tasks of the queue in flight at once, over all consumers; 0 = no cap
 * @param queueRateLimit    a token bucket every delivery of the queue takes from; {@link RateLimit#OFF} = none
 * @param partitionRateLimit a token bucket per partition, each delivery of it takes from; {@link RateLimit#OFF} = none
 * @param deadLetterMaxCount the most dead letters kept: past it the oldest are deleted; 0 = no cap
 * @param deadLetterMaxAge  dead letters that died longer ago are deleted; zero = no cap
 * @param resultRetention   how long an acked task is kept as completed, with its result (docs/task-control.md);
 *                          zero = off: an ack deletes it
 * @param maxResultBytes    the largest result a worker may keep with a completed task
 * @param eventLogLength    how many of the latest events (completed, failed, dead-lettered, cancelled) the queue's
 *                          event log keeps (docs/task-control.md, "Event log"); 0 = off: no log is written
 */
public record QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow,
                            Duration heartbeatTtl, int maxPayloadBytes, int partitionConcurrency,
                            Map<Partition, Integer> partitionConcurrencyOverrides, int queueConcurrency,
                            RateLimit queueRateLimit, RateLimit partitionRateLimit, int deadLetterMaxCount,
                            Duration deadLetterMaxAge, Duration resultRetention, int maxResultBytes,
                            int eventLogLength) {
    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    public static final Duration DEFAULT_PROCESSING_TIMEOUT = Duration.ZERO;
    public static final Duration DEFAULT_DEDUP_WINDOW = Duration.ZERO;
    /** The default heartbeat TTL in whole seconds: a compile-time constant, so option descriptions can name it. */
    public static final int DEFAULT_HEARTBEAT_TTL_SECONDS = 30;
    public static final Duration DEFAULT_HEARTBEAT_TTL = Duration.ofSeconds(DEFAULT_HEARTBEAT_TTL_SECONDS);
    /** The default payload limit in MiB, for option descriptions. */
    public static final int DEFAULT_MAX_PAYLOAD_MIB = 1;
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = DEFAULT_MAX_PAYLOAD_MIB * 1024 * 1024;
    public static final int MAX_ATTEMPTS_LIMIT = 1000;
    public static final int PAYLOAD_LIMIT = 64 * 1024 * 1024;
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    /** A worker renews at a third of the TTL: below a second one slow round trip declares a live consumer dead. */
    public static final Duration MIN_HEARTBEAT_TTL = Duration.ofSeconds(1);
    /** The shortest processing timeout when one is set: shorter ones time out handlers before they can run. */
    public static final Duration MIN_PROCESSING_TIMEOUT = Duration.ofSeconds(1);

    /** The highest concurrency cap (partition, override or queue). */
    public static final int MAX_CONCURRENCY = 100_000;
    /** The most partitions with a cap of their own. */
    public static final int MAX_CONCURRENCY_OVERRIDES = 1_000;

    /** The highest cap on the number of dead letters (a few GiB of them on Redis). */
    public static final int MAX_DEAD_LETTER_COUNT = 10_000_000;
    /** The shortest age cap on dead letters when one is set: whole seconds, as the reaper that applies it runs. */
    public static final Duration MIN_DEAD_LETTER_MAX_AGE = Duration.ofSeconds(1);
    /**
     * The most dead letters one dead-lettering deletes for the caps (docs/semantics.md, "Dead letters kept within
     * bounds"): one keeps a count cap exact, the rest shrink a backlog (a lowered cap, letters expiring together)
     * with every death at a bounded cost; the reaper's {@code trimDeadLetters} deletes whatever is left.
     */
    public static final int DEAD_LETTERS_DROPPED_PER_DEATH = 4;
    /** The shortest result retention when one is set. */
    public static final Duration MIN_RESULT_RETENTION = Duration.ofSeconds(1);
    /** The largest {@code maxResultBytes}: results are small by design. */
    public static final int RESULT_LIMIT = 1024 * 1024;
    public static final int DEFAULT_MAX_RESULT_BYTES = 16 * 1024;
    /** The longest event log: a million events of a few dozen bytes each is tens of MiB on Redis. */
    public static final int MAX_EVENT_LOG_LENGTH = 1_000_000;

    public static final QueueSettings DEFAULTS = new QueueSettings(DEFAULT_MAX_ATTEMPTS, DEFAULT_PROCESSING_TIMEOUT,
            DEFAULT_DEDUP_WINDOW, DEFAULT_HEARTBEAT_TTL, DEFAULT_MAX_PAYLOAD_BYTES);

    /** Settings without caps or rate limits. */
    public QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow, Duration heartbeatTtl,
                         int maxPayloadBytes) {
        this(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes, 0, Map.of(), 0,
                RateLimit.OFF, RateLimit.OFF);
    }

    /** Settings without caps on the dead letters. */
    public QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow, Duration heartbeatTtl,
                         int maxPayloadBytes, int partitionConcurrency,
                         Map<Partition, Integer> partitionConcurrencyOverrides, int queueConcurrency,
                         RateLimit queueRateLimit, RateLimit partitionRateLimit) {
        this(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes, partitionConcurrency,
                partitionConcurrencyOverrides, queueConcurrency, queueRateLimit, partitionRateLimit, 0, Duration.ZERO);
    }

    /** Settings without results kept. */
    public QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow, Duration heartbeatTtl,
                         int maxPayloadBytes, int partitionConcurrency,
                         Map<Partition, Integer> partitionConcurrencyOverrides, int queueConcurrency,
                         RateLimit queueRateLimit, RateLimit partitionRateLimit, int deadLetterMaxCount,
                         Duration deadLetterMaxAge) {
        this(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes, partitionConcurrency,
                partitionConcurrencyOverrides, queueConcurrency, queueRateLimit, partitionRateLimit, deadLetterMaxCount,
                deadLetterMaxAge, Duration.ZERO, DEFAULT_MAX_RESULT_BYTES);
    }

    /** Settings without an event log. */
    public QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow, Duration heartbeatTtl,
                         int maxPayloadBytes, int partitionConcurrency,
                         Map<Partition, Integer> partitionConcurrencyOverrides, int queueConcurrency,
                         RateLimit queueRateLimit, RateLimit partitionRateLimit, int deadLetterMaxCount,
                         Duration deadLetterMaxAge, Duration resultRetention, int maxResultBytes) {
        this(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes, partitionConcurrency,
                partitionConcurrencyOverrides, queueConcurrency, queueRateLimit, partitionRateLimit, deadLetterMaxCount,
                deadLetterMaxAge, resultRetention, maxResultBytes, 0);
    }

    public QueueSettings {
        Validate.range("maxAttempts", maxAttempts, 1, MAX_ATTEMPTS_LIMIT);
        Validate.duration("processingTimeout", processingTimeout, MAX_DURATION);
        Validate.duration("dedupWindow", dedupWindow, MAX_DURATION);
        Validate.duration("heartbeatTtl", heartbeatTtl, MAX_DURATION);
        // below these every consumer would pass for dead between two heartbeats, or every task would
        // time out before a handler could finish it: each task would die after its attempts ran out
        if (heartbeatTtl.compareTo(MIN_HEARTBEAT_TTL) < 0) {
            throw new InvalidInputException("heartbeatTtl", "must be at least " + MIN_HEARTBEAT_TTL.toMillis()
                    + " ms, was " + heartbeatTtl.toMillis() + " ms");
        }
        if (!processingTimeout.isZero() && processingTimeout.compareTo(MIN_PROCESSING_TIMEOUT) < 0) {
            throw new InvalidInputException("processingTimeout", "must be 0 (off) or at least "
                    + MIN_PROCESSING_TIMEOUT.toMillis() + " ms, was " + processingTimeout.toMillis() + " ms");
        }
        Validate.range("maxPayloadBytes", maxPayloadBytes, 1, PAYLOAD_LIMIT);
        Validate.range("partitionConcurrency", partitionConcurrency, 0, MAX_CONCURRENCY);
        Validate.range("queueConcurrency", queueConcurrency, 0, MAX_CONCURRENCY);
        partitionConcurrencyOverrides = checkedOverrides(partitionConcurrencyOverrides);
        Validate.notNull("queueRateLimit", queueRateLimit);
        Validate.notNull("partitionRateLimit", partitionRateLimit);
        Validate.range("deadLetterMaxCount", deadLetterMaxCount, 0, MAX_DEAD_LETTER_COUNT);
        Validate.duration("deadLetterMaxAge", deadLetterMaxAge, MAX_DURATION);
        if (!deadLetterMaxAge.isZero() && deadLetterMaxAge.compareTo(MIN_DEAD_LETTER_MAX_AGE) < 0) {
            throw new InvalidInputException("deadLetterMaxAge", "must be 0 (off) or at least "
                    + MIN_DEAD_LETTER_MAX_AGE.toMillis() + " ms, was " + deadLetterMaxAge.toMillis() + " ms");
        }
        Validate.duration("resultRetention", resultRetention, MAX_DURATION);
        if (!resultRetention.isZero() && resultRetention.compareTo(MIN_RESULT_RETENTION) < 0) {
            throw new InvalidInputException("resultRetention", "must be 0 (off) or at least "
                    + MIN_RESULT_RETENTION.toMillis() + " ms, was " + resultRetention.toMillis() + " ms");
        }
        Validate.range("maxResultBytes", maxResultBytes, 1, RESULT_LIMIT);
        Validate.range("eventLogLength", eventLogLength, 0, MAX_EVENT_LOG_LENGTH);
    }

    /** Whether the queue keeps an event log. */
    public boolean keepsEvents() {
        return eventLogLength > 0;
    }

    /** Whether an ack keeps the task as completed (with its result) instead of deleting it. */
    public boolean keepsResults() {
        return !resultRetention.isZero();
    }

    private static Map<Partition, Integer> checkedOverrides(Map<Partition, Integer> overrides) {
        String field = "partitionConcurrencyOverrides";
        Validate.notNull(field, overrides);
        if (overrides.size() > MAX_CONCURRENCY_OVERRIDES) {
            throw new InvalidInputException(field, "must hold at most " + MAX_CONCURRENCY_OVERRIDES
                    + " partitions, held " + overrides.size());
        }
        TreeMap<Partition, Integer> sorted = new TreeMap<>((a, b) -> a.code().compareTo(b.code()));
        overrides.forEach((partition, cap) -> {
            Validate.notNull(field, partition);
            if (partition.isOrdered()) {
                throw new InvalidInputException(field, "an ordered partition is processed one batch at a time and "
                        + "takes no cap, was " + partition.code());
            }
            Validate.notNull(field + "[" + partition.code() + "]", cap);
            Validate.range(field + "[" + partition.code() + "]", cap, 1, MAX_CONCURRENCY);
            sorted.put(partition, cap);
        });
        return Collections.unmodifiableMap(sorted);
    }

    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public boolean hasProcessingTimeout() {
        return !processingTimeout.isZero();
    }

    public boolean hasDedupWindow() {
        return !dedupWindow.isZero();
    }

    /** Whether any concurrency cap is set: then stores count the tasks in flight per partition and queue. */
    public boolean hasConcurrencyCaps() {
        return partitionConcurrency > 0 || queueConcurrency > 0 || !partitionConcurrencyOverrides.isEmpty();
    }

    /** The cap of a partition: its override, else {@code partitionConcurrency}; 0 = none. Ordered: none (its lock). */
    public int concurrencyOf(Partition partition) {
        if (partition.isOrdered()) {
            return 0;
        }
        Integer override = partitionConcurrencyOverrides.get(partition);
        return override != null ? override : partitionConcurrency;
    }

    public boolean hasRateLimits() {
        return !queueRateLimit.isOff() || !partitionRateLimit.isOff();
    }

    /** Whether the dead letters are kept within a count or an age: then stores delete those past either. */
    public boolean hasDeadLetterCaps() {
        return deadLetterMaxCount > 0 || !deadLetterMaxAge.isZero();
    }

    /**
     * Whether the caps delete the oldest dead letter now: there are more than {@code deadLetterMaxCount}, or the
     * oldest died {@code deadLetterMaxAge} ago or longer. Stores delete the oldest while this holds.
     *
     * @param count        the dead letters there are
     * @param oldestDeadAt when the oldest (by death order) died, epoch milliseconds
     */
    public boolean dropsOldestDeadLetter(long count, long oldestDeadAt, long now) {
        return count > 0 && (deadLetterMaxCount > 0 && count > deadLetterMaxCount
                || !deadLetterMaxAge.isZero() && oldestDeadAt + deadLetterMaxAge.toMillis() <= now);
    }

    public static final class Builder {
        private int maxAttempts;
        private Duration processingTimeout;
        private Duration dedupWindow;
        private Duration heartbeatTtl;
        private int maxPayloadBytes;
        private int partitionConcurrency;
        private Map<Partition, Integer> partitionConcurrencyOverrides;
        private int queueConcurrency;
        private RateLimit queueRateLimit;
        private RateLimit partitionRateLimit;
        private int deadLetterMaxCount;
        private Duration deadLetterMaxAge;
        private Duration resultRetention;
        private int maxResultBytes;
        private int eventLogLength;

        private Builder(QueueSettings from) {
            maxAttempts = from.maxAttempts;
            processingTimeout = from.processingTimeout;
            dedupWindow = from.dedupWindow;
            heartbeatTtl = from.heartbeatTtl;
            maxPayloadBytes = from.maxPayloadBytes;
            partitionConcurrency = from.partitionConcurrency;
            partitionConcurrencyOverrides = from.partitionConcurrencyOverrides;
            queueConcurrency = from.queueConcurrency;
            queueRateLimit = from.queueRateLimit;
            partitionRateLimit = from.partitionRateLimit;
            deadLetterMaxCount = from.deadLetterMaxCount;
            deadLetterMaxAge = from.deadLetterMaxAge;
            resultRetention = from.resultRetention;
            maxResultBytes = from.maxResultBytes;
            eventLogLength = from.eventLogLength;
        }

        public Builder maxAttempts(int value) {
            maxAttempts = value;
            return this;
        }

        public Builder processingTimeout(Duration value) {
            processingTimeout = value;
            return this;
        }

        public Builder dedupWindow(Duration value) {
            dedupWindow = value;
            return this;
        }

        public Builder heartbeatTtl(Duration value) {
            heartbeatTtl = value;
            return this;
        }

        public Builder maxPayloadBytes(int value) {
            maxPayloadBytes = value;
            return this;
        }

        public Builder partitionConcurrency(int value) {
            partitionConcurrency = value;
            return this;
        }

        /** Replaces every per-partition cap. */
        public Builder partitionConcurrencyOverrides(Map<Partition, Integer> value) {
            partitionConcurrencyOverrides = value;
            return this;
        }

        public Builder queueConcurrency(int value) {
            queueConcurrency = value;
            return this;
        }

        public Builder queueRateLimit(RateLimit value) {
            queueRateLimit = value;
            return this;
        }

        public Builder partitionRateLimit(RateLimit value) {
            partitionRateLimit = value;
            return this;
        }

        /** The most dead letters kept, the oldest deleted past it; 0 = no cap. */
        public Builder deadLetterMaxCount(int value) {
            deadLetterMaxCount = value;
            return this;
        }

        /** How long a dead letter is kept after it died; zero = no cap. */
        public Builder deadLetterMaxAge(Duration value) {
            deadLetterMaxAge = value;
            return this;
        }

        /** How long an acked task is kept as completed, with its result; zero = off (an ack deletes it). */
        public Builder resultRetention(Duration value) {
            resultRetention = value;
            return this;
        }

        /** The largest result a completed task may keep. */
        public Builder maxResultBytes(int value) {
            maxResultBytes = value;
            return this;
        }

        /** How many of the latest events the queue's event log keeps; 0 = off. */
        public Builder eventLogLength(int value) {
            eventLogLength = value;
            return this;
        }

        public QueueSettings build() {
            return new QueueSettings(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes,
                    partitionConcurrency, partitionConcurrencyOverrides, queueConcurrency, queueRateLimit,
                    partitionRateLimit, deadLetterMaxCount, deadLetterMaxAge, resultRetention, maxResultBytes,
                    eventLogLength);
        }
    }
}
