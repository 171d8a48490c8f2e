package io.ordo.ports;

import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;

/**
 * What every role of a store shares: the one queue it serves, and that queue's settings, which
 * publishers (limits), consumers (heartbeat TTL, processing timeout) and operators all read.
 */
public interface QueueBound {
    /** The queue this store serves. */
    QueueName queue();

    /** The queue's settings (defaults until configured). */
    QueueSettings settings();
}
