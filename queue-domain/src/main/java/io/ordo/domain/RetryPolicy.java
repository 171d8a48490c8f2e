package io.ordo.domain;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter: the delay before the retry after the n-th failed attempt is
 * {@code initial * multiplier^(n-1)}, capped at {@code max}, then reduced by up to {@code jitter}
 * (a fraction 0..1) at random so retries of many tasks spread out instead of arriving together.
 */
public record RetryPolicy(Duration initialDelay, double multiplier, Duration maxDelay, double jitter) {
    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofSeconds(1);
    public static final double DEFAULT_MULTIPLIER = 2.0;
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofMinutes(10);
    public static final double DEFAULT_JITTER = 0.2;
    public static final RetryPolicy DEFAULT = new RetryPolicy(DEFAULT_INITIAL_DELAY, DEFAULT_MULTIPLIER,
            DEFAULT_MAX_DELAY, DEFAULT_JITTER);

    public RetryPolicy {
        Validate.duration("initialDelay", initialDelay, NewTask.MAX_DELAY);
        Validate.duration("maxDelay", maxDelay, NewTask.MAX_DELAY);
        if (maxDelay.compareTo(initialDelay) < 0) {
            throw new InvalidInputException("maxDelay", "must not be shorter than initialDelay " + initialDelay);
        }
        if (!(multiplier >= 1.0) || multiplier > 100) {
            throw new InvalidInputException("multiplier", "must be between 1 and 100, was " + multiplier);
        }
        if (!(jitter >= 0.0) || jitter > 1.0) {
            throw new InvalidInputException("jitter", "must be between 0 and 1, was " + jitter);
        }
    }

    /** No randomness: the exact exponential schedule. */
    public RetryPolicy withoutJitter() {
        return new RetryPolicy(initialDelay, multiplier, maxDelay, 0.0);
    }

    /** The delay before retrying a task that has failed {@code failedAttempts} times (1 = first failure). */
    public Duration delayAfter(int failedAttempts, RandomGenerator random) {
        Validate.range("failedAttempts", failedAttempts, 1, Integer.MAX_VALUE);
        double base = initialDelay.toMillis() * Math.pow(multiplier, failedAttempts - 1.0);
        double capped = Math.min(base, maxDelay.toMillis());
        double jittered = jitter == 0.0 ? capped : capped * (1.0 - jitter * random.nextDouble());
        return Duration.ofMillis(Math.round(jittered));
    }
}
