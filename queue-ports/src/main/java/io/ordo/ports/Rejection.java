package io.ordo.ports;

import io.ordo.domain.Validate;

import java.time.Duration;

/**
 * How to give tasks back: due again after {@code delay}, with {@code reason} kept as the last
 * error, optionally blocking the whole partition for {@code blockPartitionFor} (a rate limit).
 */
public record Rejection(Duration delay, String reason, Duration blockPartitionFor) {
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    public static final int MAX_REASON_LENGTH = 1000;

    public Rejection {
        Validate.duration("delay", delay, MAX_DURATION);
        Validate.duration("blockPartitionFor", blockPartitionFor, MAX_DURATION);
        reason = Reasons.truncate(reason);
    }

    /** Retry after a delay. */
    public static Rejection retryAfter(Duration delay, String reason) {
        return new Rejection(delay, reason, Duration.ZERO);
    }

    /** Retry at once. */
    public static Rejection retryNow(String reason) {
        return retryAfter(Duration.ZERO, reason);
    }

    /** Retry after a delay and block the task's partition meanwhile (e.g. a downstream rate limit). */
    public static Rejection rateLimited(Duration blockFor, String reason) {
        return new Rejection(blockFor, reason, blockFor);
    }

    public boolean blocksPartition() {
        return !blockPartitionFor.isZero();
    }
}
