package io.ordo.ports;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;

import java.util.Optional;

/**
 * What every role of a store shares: the one queue it serves, and that queue's settings, which
 * publishers (limits), consumers (heartbeat TTL, processing timeout) and operators all read.
 */
public interface QueueBound {
    /** The queue this store serves. */
    QueueName queue();

    /**
     * The consumer group this store serves, or empty for the queue's own view (docs/groups.md): consuming,
     * acking, stats, dead letters, pause and settings are the group's; publishing is the queue's.
     */
    default Optional<GroupName> group() {
        return Optional.empty();
    }

    /** The queue's settings (defaults until configured). */
    QueueSettings settings();
}
