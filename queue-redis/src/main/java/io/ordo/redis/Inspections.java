package io.ordo.redis;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.QueueInspection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads an inspection: the time, then four sections of a total, a count and the rows (see RedisTaskStore.inspect). */
final class Inspections {
    private Inspections() {
    }

    /**
     * The {@code limit} partitions with the most waiting tasks, ties in the order of their codes (as the
     * in-memory store lists them), in that order.
     */
    static Map<String, Long> busiest(Map<String, Long> waitingByCode, int limit) {
        Map<String, Long> busiest = new LinkedHashMap<>();
        waitingByCode.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(limit)
                .forEach(entry -> busiest.put(entry.getKey(), entry.getValue()));
        return busiest;
    }

    static QueueInspection decode(List<Object> reply) {
        Cursor in = new Cursor(reply);
        long now = in.number();

        long totalPartitions = in.number();
        List<PartitionBacklog> partitions = new ArrayList<>();
        for (long n = in.number(); n > 0; n--) {
            partitions.add(new PartitionBacklog(Partition.of(in.text()), in.number(), in.number()));
        }
        long totalLocks = in.number();
        List<PartitionLock> locks = new ArrayList<>();
        for (long n = in.number(); n > 0; n--) {
            locks.add(new PartitionLock(Partition.of(in.text()), ConsumerId.of(in.text()), in.instant(), in.number()));
        }
        long totalBlocks = in.number();
        List<PartitionBlock> blocks = new ArrayList<>();
        for (long n = in.number(); n > 0; n--) {
            blocks.add(new PartitionBlock(Partition.of(in.text()), in.instant()));
        }
        long totalConsumers = in.number();
        List<ConsumerPresence> consumers = new ArrayList<>();
        for (long n = in.number(); n > 0; n--) {
            ConsumerId consumer = ConsumerId.of(in.text());
            Instant lastHeartbeat = in.instant();
            long expiresAt = in.number();
            // alive as stats() counts live consumers: expiresAt after now
            consumers.add(new ConsumerPresence(consumer, lastHeartbeat, Instant.ofEpochMilli(expiresAt),
                    expiresAt > now, in.number()));
        }
        return new QueueInspection(Instant.ofEpochMilli(now), partitions, totalPartitions, locks, totalLocks,
                blocks, totalBlocks, consumers, totalConsumers);
    }

    /** The flat reply read front to back. */
    private static final class Cursor {
        private final List<Object> reply;
        private int next;

        Cursor(List<Object> reply) {
            this.reply = reply;
        }

        long number() {
            return Replies.number(reply, next++);
        }

        Instant instant() {
            return Instant.ofEpochMilli(number());
        }

        String text() {
            return Replies.text(reply, next++);
        }
    }
}
