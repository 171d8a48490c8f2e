package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The leases of tasks in flight, by task and by holder and partition, so that what one consumer holds (of
 * one partition) is found without looking at every lease: acking or returning many tasks stays linear in
 * them, as on the Redis stores.
 */
final class Holdings {
    private final Map<TaskId, Lease> byTask = new HashMap<>();
    private final Map<ConsumerId, Map<Partition, Map<TaskId, Lease>>> byHolder = new HashMap<>();

    void put(TaskId id, Lease lease) {
        remove(id);
        byTask.put(id, lease);
        byHolder.computeIfAbsent(lease.consumer(), consumer -> new HashMap<>())
                .computeIfAbsent(lease.partition(), partition -> new LinkedHashMap<>()).put(id, lease);
    }

    Lease remove(TaskId id) {
        Lease lease = byTask.remove(id);
        if (lease != null) {
            Map<Partition, Map<TaskId, Lease>> partitions = byHolder.get(lease.consumer());
            Map<TaskId, Lease> leases = partitions.get(lease.partition());
            leases.remove(id);
            if (leases.isEmpty()) {
                partitions.remove(lease.partition());
                if (partitions.isEmpty()) {
                    byHolder.remove(lease.consumer());
                }
            }
        }
        return lease;
    }

    Lease get(TaskId id) {
        return byTask.get(id);
    }

    boolean containsKey(TaskId id) {
        return byTask.containsKey(id);
    }

    Collection<Lease> values() {
        return byTask.values();
    }

    int size() {
        return byTask.size();
    }

    boolean isEmpty() {
        return byTask.isEmpty();
    }

    /** Everything the consumer holds, in no particular order. */
    List<Lease> of(ConsumerId consumer) {
        List<Lease> leases = new ArrayList<>();
        byHolder.getOrDefault(consumer, Map.of()).values().forEach(partition -> leases.addAll(partition.values()));
        return leases;
    }

    /** What the consumer holds of one partition, in no particular order. */
    Collection<Lease> of(ConsumerId consumer, Partition partition) {
        return byHolder.getOrDefault(consumer, Map.of()).getOrDefault(partition, Map.of()).values();
    }

    /** Whether the consumer holds anything of the partition. */
    boolean holdsAny(ConsumerId consumer, Partition partition) {
        return !of(consumer, partition).isEmpty();
    }
}
