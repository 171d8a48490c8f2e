package io.ordo.sharding;

import io.ordo.domain.Lease;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;
import io.ordo.ports.TaskIds;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Which shards a call naming task ids goes to, and its outcomes merged into one queue's: a lease goes back to
 * the shard it came from, remembered from consume (a hint only, forgotten when the lease is settled or the
 * memory is full); any other id is asked of every shard.
 */
final class ShardRoutes {
    private final List<TaskStore> shards;
    private final int capacity;
    private final Map<TaskId, Integer> leaseShards = new ConcurrentHashMap<>();

    ShardRoutes(List<TaskStore> shards, int capacity) {
        this.shards = shards;
        this.capacity = capacity;
    }

    /** Remembers the shard the leases came from; gives the leases back. */
    List<Lease> remember(int shard, List<Lease> leases) {
        if (leaseShards.size() + leases.size() > capacity) {
            leaseShards.clear(); // leases abandoned without an ack would pile up; every route is only a hint
        }
        leases.forEach(lease -> leaseShards.put(lease.id(), shard));
        return leases;
    }

    /** Routed; every outcome of these operations ends the consumer's hold on the task: its route is forgotten. */
    <O> Map<TaskId, O> settle(Collection<TaskId> ids, O lost,
                              BiFunction<TaskStore, List<TaskId>, Map<TaskId, O>> operation) {
        Map<TaskId, O> outcomes = routed(ids, lost, operation);
        outcomes.keySet().forEach(leaseShards::remove);
        return outcomes;
    }

    /** To the shard a lease came from, else asked of every shard. */
    <O> Map<TaskId, O> routed(Collection<TaskId> ids, O lost,
                              BiFunction<TaskStore, List<TaskId>, Map<TaskId, O>> operation) {
        return onShards(TaskIds.distinct("ids", ids), true, lost, operation);
    }

    /** Asked of every shard. */
    <O> Map<TaskId, O> everyShard(Collection<TaskId> ids, O unknown,
                                  BiFunction<TaskStore, List<TaskId>, Map<TaskId, O>> operation) {
        return onShards(TaskIds.distinct("ids", ids), false, unknown, operation);
    }

    /** The remembered shard's snapshot first, else the first shard's that has the task. */
    Optional<TaskSnapshot> get(TaskId id) {
        Validate.notNull("id", id);
        Integer known = leaseShards.get(id);
        if (known != null) {
            Optional<TaskSnapshot> snapshot = shards.get(known).get(id);
            if (snapshot.isPresent()) {
                return snapshot;
            }
        }
        for (TaskStore shard : shards) {
            Optional<TaskSnapshot> snapshot = shard.get(id);
            if (snapshot.isPresent()) {
                return snapshot;
            }
        }
        return Optional.empty();
    }

    /**
     * Runs an id operation on the shards that may hold the ids: the remembered shard of a lease when
     * {@code routed}, else every shard. Per id, the outcome of the shard that has the task (the first
     * that answers other than {@code absent}); then what shards add (tasks returned with their ordered
     * batch), in shard order.
     */
    private <O> Map<TaskId, O> onShards(List<TaskId> ids, boolean routed, O absent,
                                        BiFunction<TaskStore, List<TaskId>, Map<TaskId, O>> operation) {
        List<List<TaskId>> parts = new ArrayList<>();
        shards.forEach(shard -> parts.add(new ArrayList<>()));
        for (TaskId id : ids) {
            Integer shard = routed ? leaseShards.get(id) : null;
            if (shard != null) {
                parts.get(shard).add(id);
            } else {
                parts.forEach(part -> part.add(id));
            }
        }
        Map<TaskId, O> named = new LinkedHashMap<>();
        ids.forEach(id -> named.put(id, absent));
        Map<TaskId, O> added = new LinkedHashMap<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            if (parts.get(shard).isEmpty()) {
                continue;
            }
            operation.apply(shards.get(shard), parts.get(shard)).forEach((id, outcome) -> {
                if (!named.containsKey(id)) {
                    added.put(id, outcome);
                } else if (named.get(id).equals(absent)) {
                    named.put(id, outcome);
                }
            });
        }
        named.putAll(added);
        return named;
    }
}
