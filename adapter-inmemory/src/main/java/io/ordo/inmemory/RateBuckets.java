package io.ordo.inmemory;

import io.ordo.domain.Partition;
import io.ordo.domain.RateLimit;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The token buckets of a queue's rate limits (see {@link RateLimit}): the queue's, and one per partition
 * while it is not full. A bucket holds units, {@code per} of them a delivery; it refills on the clock.
 * Not thread-safe: the store calls it under its monitor.
 */
final class RateBuckets {
    /** Per partition, its bucket when not full: {units, at}. */
    private final Map<Partition, long[]> partitions = new HashMap<>();
    /** The queue's bucket: units at queueAt; negative = full. */
    private long queueUnits = -1;
    private long queueAt;

    /** Units in the queue's bucket at now. */
    long queueUnits(RateLimit limit, long now) {
        return queueUnits < 0 ? limit.capacityUnits() : limit.unitsAt(queueUnits, queueAt, now);
    }

    /** Units in the partition's bucket at now. */
    long partitionUnits(RateLimit limit, Partition partition, long now) {
        long[] bucket = partitions.get(partition);
        return bucket == null ? limit.capacityUnits() : limit.unitsAt(bucket[0], bucket[1], now);
    }

    /** The deliveries the queue's tokens allow now (no bound when the limit is off). */
    long queueTokens(RateLimit limit, long now) {
        return limit.isOff() ? Long.MAX_VALUE : queueUnits(limit, now) / limit.periodMillis();
    }

    /** The deliveries the partition's tokens allow now (no bound when the limit is off). */
    long partitionTokens(RateLimit limit, Partition partition, long now) {
        return limit.isOff() ? Long.MAX_VALUE : partitionUnits(limit, partition, now) / limit.periodMillis();
    }

    /** Takes the tokens of {@code deliveries} from the queue's bucket. */
    void takeFromQueue(RateLimit limit, int deliveries, long now) {
        queueUnits = queueUnits(limit, now) - deliveries * limit.periodMillis();
        queueAt = now;
    }

    /** Takes the tokens of {@code deliveries} from the partition's bucket. */
    void takeFromPartition(RateLimit limit, Partition partition, int deliveries, long now) {
        long units = partitionUnits(limit, partition, now) - deliveries * limit.periodMillis();
        partitions.put(partition, new long[] {units, now});
    }

    /** A partition out of tokens: when its next one comes; else 0. A bucket found full is forgotten. */
    long throttledUntil(RateLimit limit, Partition partition, long now) {
        if (limit.isOff() || !partitions.containsKey(partition)) {
            return 0;
        }
        long units = partitionUnits(limit, partition, now);
        if (units >= limit.capacityUnits()) {
            partitions.remove(partition);
            return 0;
        }
        return units >= limit.periodMillis() ? 0 : limit.nextTokenAt(units, now);
    }

    /** How many partitions that pass {@code counted} have less than one token now. */
    long countThrottled(RateLimit limit, long now, Predicate<Partition> counted) {
        if (limit.isOff()) {
            return 0;
        }
        return partitions.keySet().stream().filter(partition -> counted.test(partition)
                && partitionUnits(limit, partition, now) < limit.periodMillis()).count();
    }

    /** A limit that changed starts full. */
    void limitsChanged(boolean queueChanged, boolean partitionChanged) {
        if (queueChanged) {
            queueUnits = -1;
        }
        if (partitionChanged) {
            partitions.clear();
        }
    }
}
