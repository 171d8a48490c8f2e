package io.ordo.runtime.worker;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Validate;
import io.ordo.ports.Reasons;
import io.ordo.ports.Rejection;

import java.time.Duration;

/**
 * What a handler says about a task, as a value: done, try again later, give up, or slow down.
 * An exception thrown by the handler means "try again with the worker's backoff".
 */
public sealed interface Outcome {
    /** Done: the task is acked and gone. */
    static Outcome success() {
        return Success.INSTANCE;
    }

    /**
     * Done, with a result: while the queue keeps results ({@code resultRetention}, docs/task-control.md), the
     * completed task keeps it, encoded with the worker's codec (a routing worker's: the route's), for
     * {@code get} to show; else it is dropped. An ack with a result is a store call of its own (a plain
     * {@link #success()} rides on the next fetch).
     */
    static Outcome success(Object result) {
        return new Result(Validate.notNull("result", result));
    }

    /** Try again after {@code delay} (instead of the worker's backoff); the attempt counts. */
    static Outcome retryAfter(Duration delay, String reason) {
        return new RetryAfter(delay, reason);
    }

    /** Never retry: the task becomes a dead letter carrying {@code reason} at once. */
    static Outcome fail(String reason) {
        return new Fail(reason);
    }

    /**
     * A downstream limit was hit: the task goes back unprocessed and its whole partition delivers
     * nothing for {@code blockFor}. The attempt does not count (docs/decisions/worker-rate-limits.md).
     */
    static Outcome rateLimited(Duration blockFor, String reason) {
        return new RateLimited(blockFor, reason);
    }

    /**
     * Not this worker's to handle (a {@link TaskRouter} with no handler for its type): after {@code after}
     * the task goes back unprocessed, its attempt not counted, for a worker that can. The wait keeps a
     * worker from taking the same task back at once, over and over.
     */
    static Outcome passOn(Duration after, String reason) {
        return new PassOn(after, reason);
    }

    /** Whether this outcome says the handler did its work (with a result or without). */
    default boolean isSuccess() {
        return this instanceof Success || this instanceof Result;
    }

    /** The handler did its work. */
    enum Success implements Outcome {
        INSTANCE
    }

    /** The handler did its work and has a result to keep: a value, or its bytes once the worker encoded it. */
    record Result(Object value) implements Outcome {
        /** This result as bytes, with {@code codec} unless it is bytes already. */
        Result encoded(io.ordo.ports.PayloadCodec codec) {
            return value instanceof byte[] ? this : new Result(codec.encode(value));
        }
    }

    record RetryAfter(Duration delay, String reason) implements Outcome {
        public RetryAfter {
            Validate.duration("delay", delay, Rejection.MAX_DURATION);
            reason = Reasons.truncate(reason);
        }
    }

    record Fail(String reason) implements Outcome {
        public Fail {
            reason = Reasons.truncate(reason);
        }
    }

    record PassOn(Duration after, String reason) implements Outcome {
        public PassOn {
            Validate.duration("after", after, Rejection.MAX_DURATION);
            reason = Reasons.truncate(reason);
        }
    }

    record RateLimited(Duration blockFor, String reason) implements Outcome {
        public RateLimited {
            Validate.duration("blockFor", blockFor, Rejection.MAX_DURATION);
            if (blockFor.isZero()) {
                throw new InvalidInputException("blockFor", "must be positive to block the partition");
            }
            reason = Reasons.truncate(reason);
        }
    }
}
