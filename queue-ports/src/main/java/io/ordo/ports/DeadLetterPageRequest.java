package io.ordo.ports;

import io.ordo.domain.Validate;

/**
 * Which page of the dead letters is asked for, checked here once for every store: from {@code offset}
 * (0 or more), {@code limit} of them (1..{@link TaskConsuming#MAX_CONSUME}).
 */
public record DeadLetterPageRequest(int offset, int limit) {
    public DeadLetterPageRequest {
        Validate.range("offset", offset, 0, Integer.MAX_VALUE);
        Validate.range("limit", limit, 1, TaskConsuming.MAX_CONSUME);
    }
}
