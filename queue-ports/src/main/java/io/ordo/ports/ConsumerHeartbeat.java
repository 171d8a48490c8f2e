package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Validate;

import java.time.Duration;

/**
 * A consumer's heartbeat, checked here once for every store: who ({@code consumer}) stays alive for how
 * long ({@code ttl}: at least 1 ms, at most {@link QueueSettings#MAX_DURATION}).
 */
public record ConsumerHeartbeat(ConsumerId consumer, Duration ttl) {
    public ConsumerHeartbeat {
        Validate.notNull("consumer", consumer);
        Validate.duration("ttl", ttl, QueueSettings.MAX_DURATION);
        if (ttl.toMillis() < 1) {
            throw new InvalidInputException("ttl", "must be at least 1 ms, was " + ttl);
        }
    }
}
