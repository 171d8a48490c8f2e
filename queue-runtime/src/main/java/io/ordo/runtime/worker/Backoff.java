package io.ordo.runtime.worker;

import io.ordo.domain.RetryPolicy;

import java.time.Duration;
import java.util.function.IntFunction;
import java.util.random.RandomGenerator;

/**
 * The delay a policy gives after so many failed attempts, its jitter drawn from a generator that
 * several backoffs of one worker share (one seed makes a whole run replayable).
 */
final class Backoff implements IntFunction<Duration> {
    private final RetryPolicy policy;
    private final RandomGenerator random;

    Backoff(RetryPolicy policy, RandomGenerator random) {
        this.policy = policy;
        this.random = random;
    }

    @Override
    public Duration apply(int failedAttempts) {
        synchronized (random) { // generators are not thread-safe; the lock is the shared generator
            return policy.delayAfter(Math.max(1, failedAttempts), random);
        }
    }
}
