package io.ordo.simulation;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;

import java.util.HashMap;
import java.util.Map;

/**
 * The rate limits' buckets as docs/semantics.md states them ("Caps and rate limits"): the queue's and one
 * per partition, full until first used, refilled on the clock, reset when their limit changes.
 */
final class TokenBuckets {
    private final Map<Partition, long[]> partitions = new HashMap<>();
    private long queueUnits = -1;
    private long queueAt;

    /** The settings changed from {@code before} to {@code after}: a changed limit starts full. */
    void configured(QueueSettings before, QueueSettings after) {
        if (!before.queueRateLimit().equals(after.queueRateLimit())) {
            queueUnits = -1;
        }
        if (!before.partitionRateLimit().equals(after.partitionRateLimit())) {
            partitions.clear();
        }
    }

    /** Whole tokens of the queue's bucket at {@code now}; unlimited without a queue rate limit. */
    long queueTokens(QueueSettings settings, long now) {
        RateLimit limit = settings.queueRateLimit();
        return limit.isOff() ? Long.MAX_VALUE : queueUnits(limit, now) / limit.periodMillis();
    }

    /** Whole tokens of the partition's bucket at {@code now}; unlimited without a partition rate limit. */
    long partitionTokens(QueueSettings settings, Partition partition, long now) {
        RateLimit limit = settings.partitionRateLimit();
        return limit.isOff() ? Long.MAX_VALUE : partitionUnits(limit, partition, now) / limit.periodMillis();
    }

    /** {@code count} deliveries at {@code now}, from the partition's bucket and the queue's. */
    void took(QueueSettings settings, Partition partition, int count, long now) {
        RateLimit partitionLimit = settings.partitionRateLimit();
        if (!partitionLimit.isOff()) {
            partitions.put(partition, new long[] {
                    partitionUnits(partitionLimit, partition, now) - count * partitionLimit.periodMillis(), now});
        }
        RateLimit queueLimit = settings.queueRateLimit();
        if (!queueLimit.isOff()) {
            queueUnits = queueUnits(queueLimit, now) - count * queueLimit.periodMillis();
            queueAt = now;
        }
    }

    private long queueUnits(RateLimit limit, long now) {
        return queueUnits < 0 ? limit.capacityUnits() : limit.unitsAt(queueUnits, queueAt, now);
    }

    private long partitionUnits(RateLimit limit, Partition partition, long now) {
        long[] bucket = partitions.get(partition);
        return bucket == null ? limit.capacityUnits() : limit.unitsAt(bucket[0], bucket[1], now);
    }
}
