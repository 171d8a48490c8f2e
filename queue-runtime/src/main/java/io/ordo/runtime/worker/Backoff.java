package io.ordo.runtime.worker;

import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;

import java.time.Duration;
import java.util.function.IntFunction;
import java.util.random.RandomGenerator;

/**
 * The delay a policy gives after so many failed attempts, its jitter drawn from a generator that
 * several backoffs of one worker share (one seed makes a whole run replayable). A task published with
 * its own policy is retried by that one.
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
        return delay(policy, failedAttempts);
    }

    /** The delay before retrying the task after its attempts so far: by its own policy if it has one, else this one. */
    Duration after(Task task) {
        return delay(task.retryPolicyOr(policy), task.attempts());
    }

    private Duration delay(RetryPolicy chosen, int failedAttempts) {
        synchronized (random) { // generators are not thread-safe; the lock is the shared generator
            return chosen.delayAfter(Math.max(1, failedAttempts), random);
        }
    }
}
