package io.ordo.runtime.worker;

import io.ordo.domain.Validate;

import java.util.Optional;

/**
 * What one handler run came to: the {@link Outcome} the worker settles the task with, and the exception
 * when the handler threw (the outcome is then a retry after the worker's backoff) or the payload could
 * not be decoded (the outcome is then {@link Outcome.Fail}: a dead letter).
 */
public record HandlerResult(Outcome outcome, Throwable error) {
    public HandlerResult {
        Validate.notNull("outcome", outcome);
    }

    /** The handler returned {@code outcome}. */
    public static HandlerResult returned(Outcome outcome) {
        return new HandlerResult(outcome, null);
    }

    /** The handler (or decoding) threw {@code error}; the worker settles the task with {@code outcome}. */
    public static HandlerResult threw(Throwable error, Outcome outcome) {
        return new HandlerResult(outcome, Validate.notNull("error", error));
    }

    public Optional<Throwable> errorIfAny() {
        return Optional.ofNullable(error);
    }
}
