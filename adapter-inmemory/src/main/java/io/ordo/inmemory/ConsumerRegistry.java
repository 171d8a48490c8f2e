package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumers a queue knows: when each expires (a consume or heartbeat renews it) and when it was last
 * heard from. Not thread-safe: the store calls it under its monitor.
 */
final class ConsumerRegistry {
    /** Registered consumers and when each expires. */
    private final Map<ConsumerId, Long> expiries = new HashMap<>();
    /** When each registered consumer last heartbeated or consumed (inspection only). */
    private final Map<ConsumerId, Long> lastHeard = new HashMap<>();

    /** A consume: registers the consumer, never shortening a longer expiry a heartbeat gave. */
    void consumed(ConsumerId consumer, long expiresAt, long now) {
        expiries.merge(consumer, expiresAt, Math::max);
        lastHeard.put(consumer, now);
    }

    /** A heartbeat: the consumer expires at expiresAt. */
    void heartbeat(ConsumerId consumer, long expiresAt, long now) {
        expiries.put(consumer, expiresAt);
        lastHeard.put(consumer, now);
    }

    /** The consumers expired at now, by name, taken out of the registry. */
    List<ConsumerId> removeExpired(long now) {
        List<ConsumerId> expired = expiries.entrySet().stream()
                .filter(entry -> entry.getValue() <= now)
                .map(Map.Entry::getKey)
                .sorted(Comparator.comparing(ConsumerId::value))
                .toList();
        for (ConsumerId consumer : expired) {
            expiries.remove(consumer);
            lastHeard.remove(consumer);
        }
        return expired;
    }

    long liveCount(long now) {
        return expiries.values().stream().filter(expiresAt -> expiresAt > now).count();
    }

    boolean isEmpty() {
        return expiries.isEmpty();
    }

    /** Registered consumers and when each expires. */
    Map<ConsumerId, Long> expiries() {
        return expiries;
    }

    /** When each registered consumer was last heard from. */
    Map<ConsumerId, Long> lastHeard() {
        return lastHeard;
    }
}
