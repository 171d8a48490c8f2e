package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Validate;

import java.time.Duration;

/**
 * What a consume asks for, checked here once for every store: who takes (field {@code consumer}), how many
 * ({@code max}, at most {@link TaskConsuming#MAX_CONSUME}), how long it may wait ({@code wait}, at most
 * {@link TaskConsuming#MAX_WAIT}).
 */
public record ConsumeRequest(ConsumerId consumer, int max, Duration longestWait) {
    /** A plain consume asks for at least one task; a consume after acks may ask for none. */
    public ConsumeRequest {
        Validate.notNull("consumer", consumer);
        Validate.range("max", max, 0, TaskConsuming.MAX_CONSUME);
        Validate.duration("wait", longestWait, TaskConsuming.MAX_WAIT);
    }

    /** The arguments of {@link TaskConsuming#consume}: at least one task. */
    public static ConsumeRequest taking(ConsumerId consumer, int max, Duration wait) {
        Validate.notNull("consumer", consumer);
        Validate.range("max", max, 1, TaskConsuming.MAX_CONSUME);
        return new ConsumeRequest(consumer, max, wait);
    }

    /** Whether it asks for no task at all (acks only). */
    public boolean takesNone() {
        return max == 0;
    }
}
