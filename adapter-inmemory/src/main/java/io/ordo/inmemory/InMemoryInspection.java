package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.QueueInspection;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What {@code inspect} reads of the in-memory store, put in the order and cut at the limit the port gives. */
final class InMemoryInspection {
    private InMemoryInspection() {
    }

    /**
     * @param expiries       registered consumers and when each expires
     * @param lastHeartbeats when each registered consumer last heartbeated or consumed
     */
    static QueueInspection read(long now, int limit, WaitingTasks waiting, Holdings holdings,
                                Map<ConsumerId, Long> expiries, Map<ConsumerId, Long> lastHeartbeats) {
        List<PartitionBacklog> backlog = waiting.partitions().stream()
                .map(state -> new PartitionBacklog(state.partition, state.waiting.size(),
                        state.waiting.stream().filter(task -> task.isReadyAt(now)).count()))
                .sorted(Comparator.comparingLong(PartitionBacklog::waiting).reversed()
                        .thenComparing(backlogged -> backlogged.partition().code()))
                .toList();
        List<PartitionLock> lockList = holdings.locks().entrySet().stream()
                .map(lock -> new PartitionLock(lock.getKey(), lock.getValue(),
                        Instant.ofEpochMilli(holdings.lockedAt(lock.getKey())),
                        holdings.heldInPartition(lock.getValue(), lock.getKey()).size()))
                .sorted(Comparator.comparing(PartitionLock::since)
                        .thenComparing(lock -> lock.partition().code()))
                .toList();
        List<PartitionBlock> blocks = waiting.blocks().entrySet().stream()
                .filter(block -> block.getValue() > now)
                .map(block -> new PartitionBlock(block.getKey(), Instant.ofEpochMilli(block.getValue())))
                .sorted(Comparator.comparing(PartitionBlock::until)
                        .thenComparing(block -> block.partition().code()))
                .toList();
        Map<ConsumerId, Long> inFlightByConsumer = new HashMap<>();
        holdings.all().forEach(lease -> inFlightByConsumer.merge(lease.consumer(), 1L, Long::sum));
        List<ConsumerPresence> presences = expiries.entrySet().stream()
                .map(consumer -> new ConsumerPresence(consumer.getKey(),
                        Instant.ofEpochMilli(lastHeartbeats.get(consumer.getKey())),
                        Instant.ofEpochMilli(consumer.getValue()), consumer.getValue() > now,
                        inFlightByConsumer.getOrDefault(consumer.getKey(), 0L)))
                .sorted(Comparator.comparing(ConsumerPresence::lastHeartbeat).reversed()
                        .thenComparing(presence -> presence.consumer().value()))
                .toList();
        return new QueueInspection(Instant.ofEpochMilli(now),
                first(backlog, limit), backlog.size(), first(lockList, limit), lockList.size(),
                first(blocks, limit), blocks.size(), first(presences, limit), presences.size());
    }

    private static <T> List<T> first(List<T> all, int limit) {
        return all.size() <= limit ? all : all.subList(0, limit);
    }
}
