package io.ordo.ports;

import io.ordo.domain.ConsumerId;

import java.time.Instant;

/**
 * A registered consumer as the queue sees it.
 *
 * @param consumer      the consumer
 * @param lastHeartbeat when it last heartbeated
 * @param expiresAt     when its heartbeat runs out
 * @param alive         whether {@code expiresAt} is after the inspection time
 * @param inFlight      tasks it holds
 */
public record ConsumerPresence(ConsumerId consumer, Instant lastHeartbeat, Instant expiresAt, boolean alive,
                               long inFlight) {
}
