package io.ordo.sharding;

import io.ordo.domain.ConsumerId;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sharded queue's stats and inspection: every shard's read in turn and merged into one queue's, the rules for
 * what sums and what does not (a consumer is registered on every shard it works on) kept together.
 */
final class ShardedStats {
    private final List<TaskStore> shards;

    ShardedStats(List<TaskStore> shards) {
        this.shards = shards;
    }

    /**
     * Sums over the shards, except: the lag is the largest; live consumers the most any shard counts (a
     * consumer that heartbeats is registered on every shard); paused if any shard is.
     */
    QueueStats stats() {
        QueueStats sum = new QueueStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false);
        for (TaskStore shard : shards) {
            QueueStats s = shard.stats();
            sum = new QueueStats(sum.ready() + s.ready(), sum.delayed() + s.delayed(), sum.inFlight() + s.inFlight(),
                    sum.dead() + s.dead(), sum.activePartitions() + s.activePartitions(),
                    sum.lockedPartitions() + s.lockedPartitions(), sum.blockedPartitions() + s.blockedPartitions(),
                    sum.cappedPartitions() + s.cappedPartitions(), sum.throttledPartitions() + s.throttledPartitions(),
                    Math.max(sum.liveConsumers(), s.liveConsumers()),
                    Math.max(sum.oldestDueAgeMillis(), s.oldestDueAgeMillis()),
                    sum.publishedTotal() + s.publishedTotal(), sum.ackedTotal() + s.ackedTotal(),
                    sum.deadLetteredTotal() + s.deadLetteredTotal(),
                    sum.deadLettersDroppedTotal() + s.deadLettersDroppedTotal(), sum.paused() || s.paused(),
                    sum.completed() + s.completed());
        }
        return sum;
    }

    /**
     * Every shard's inspection, merged: partitions, locks and blocks each live on one shard, so their
     * lists are sorted and cut again and their totals summed. A consumer is registered on every shard it
     * heartbeats or consumes on, so it is listed once: latest heartbeat and expiry, alive if alive on any
     * shard, its tasks in flight summed. When a shard has more consumers than {@code limit}, the consumers'
     * total is the largest shard's (as {@link #stats()} counts live consumers) and in-flight counts may
     * miss what a shard left out. Read shard by shard, not in one step; {@code inspectedAt} is the latest
     * shard's.
     */
    QueueInspection inspect(int limit) {
        QueueInspection.checkedLimit(limit);
        Instant inspectedAt = Instant.EPOCH;
        List<PartitionBacklog> backlog = new ArrayList<>();
        List<PartitionLock> locks = new ArrayList<>();
        List<PartitionBlock> blocks = new ArrayList<>();
        Map<ConsumerId, ConsumerPresence> consumers = new LinkedHashMap<>();
        long totalPartitions = 0;
        long totalLocks = 0;
        long totalBlocks = 0;
        long largestConsumerTotal = 0;
        boolean consumersComplete = true;
        for (TaskStore shard : shards) {
            QueueInspection part = shard.inspect(limit);
            inspectedAt = part.inspectedAt().isAfter(inspectedAt) ? part.inspectedAt() : inspectedAt;
            backlog.addAll(part.busiestPartitions());
            locks.addAll(part.locks());
            blocks.addAll(part.blocks());
            totalPartitions += part.totalPartitions();
            totalLocks += part.totalLocks();
            totalBlocks += part.totalBlocks();
            largestConsumerTotal = Math.max(largestConsumerTotal, part.totalConsumers());
            consumersComplete &= part.consumers().size() == part.totalConsumers();
            part.consumers().forEach(presence -> consumers.merge(presence.consumer(), presence, ShardedStats::merged));
        }
        backlog.sort(Comparator.comparingLong(PartitionBacklog::waiting).reversed()
                .thenComparing(partition -> partition.partition().code()));
        locks.sort(Comparator.comparing(PartitionLock::since).thenComparing(lock -> lock.partition().code()));
        blocks.sort(Comparator.comparing(PartitionBlock::until).thenComparing(block -> block.partition().code()));
        List<ConsumerPresence> presences = new ArrayList<>(consumers.values());
        presences.sort(Comparator.comparing(ConsumerPresence::lastHeartbeat).reversed()
                .thenComparing(presence -> presence.consumer().value()));
        long totalConsumers = consumersComplete ? presences.size() : Math.max(largestConsumerTotal, presences.size());
        return new QueueInspection(inspectedAt, first(backlog, limit), totalPartitions, first(locks, limit),
                totalLocks, first(blocks, limit), totalBlocks, first(presences, limit), totalConsumers);
    }

    private static ConsumerPresence merged(ConsumerPresence a, ConsumerPresence b) {
        return new ConsumerPresence(a.consumer(),
                a.lastHeartbeat().isAfter(b.lastHeartbeat()) ? a.lastHeartbeat() : b.lastHeartbeat(),
                a.expiresAt().isAfter(b.expiresAt()) ? a.expiresAt() : b.expiresAt(),
                a.alive() || b.alive(), a.inFlight() + b.inFlight());
    }

    private static <T> List<T> first(List<T> all, int limit) {
        return all.size() <= limit ? all : all.subList(0, limit);
    }
}
