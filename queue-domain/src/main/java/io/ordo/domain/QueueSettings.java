package io.ordo.domain;

import java.time.Duration;

/**
 * Settings kept with the queue so every client and worker agrees.
 *
 * @param maxAttempts       deliveries before a rejected or reclaimed task goes to the dead letters
 * @param processingTimeout a task in flight longer than this is reclaimed even if its consumer lives; zero = off
 * @param dedupWindow       how long an acked task's id is remembered so a re-publish is a duplicate; zero = off
 * @param heartbeatTtl      how long a consumer stays alive after its last heartbeat or consume
 * @param maxPayloadBytes   the largest payload a publish accepts
 */
public record QueueSettings(int maxAttempts, Duration processingTimeout, Duration dedupWindow,
                            Duration heartbeatTtl, int maxPayloadBytes) {
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

    public static final QueueSettings DEFAULTS = new QueueSettings(DEFAULT_MAX_ATTEMPTS, DEFAULT_PROCESSING_TIMEOUT,
            DEFAULT_DEDUP_WINDOW, DEFAULT_HEARTBEAT_TTL, DEFAULT_MAX_PAYLOAD_BYTES);

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

    public static final class Builder {
        private int maxAttempts;
        private Duration processingTimeout;
        private Duration dedupWindow;
        private Duration heartbeatTtl;
        private int maxPayloadBytes;

        private Builder(QueueSettings from) {
            maxAttempts = from.maxAttempts;
            processingTimeout = from.processingTimeout;
            dedupWindow = from.dedupWindow;
            heartbeatTtl = from.heartbeatTtl;
            maxPayloadBytes = from.maxPayloadBytes;
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

        public QueueSettings build() {
            return new QueueSettings(maxAttempts, processingTimeout, dedupWindow, heartbeatTtl, maxPayloadBytes);
        }
    }
}
