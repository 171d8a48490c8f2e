package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The in-memory store's tasks in flight, by id and by consumer and partition in key order (lock releases,
 * reclaims), and the locks of ordered partitions with the consumer holding each. Guarded by the store's
 * monitor.
 */
final class Holdings {
    private static final Comparator<Lease> LEASE_BY_KEY = Comparator.comparing((Lease lease) -> lease.task().orderingKey());

    /** Tasks in flight, by id. */
    private final Map<TaskId, Lease> held = new HashMap<>();
    /** The same tasks in flight by consumer and partition, in key order. */
    private final Map<ConsumerId, Map<Partition, TreeSet<Lease>>> heldByConsumer = new HashMap<>();
    /** Ordered partitions and the consumer holding each. */
    private final Map<Partition, ConsumerId> locks = new HashMap<>();
    /** When each held ordered partition was locked (inspection only). */
    private final Map<Partition, Long> lockedAt = new HashMap<>();
    /** How many tasks of each partition are in flight (concurrency caps). */
    private final Map<Partition, Integer> inFlight = new HashMap<>();
    /** Told of each partition whose lock goes: it may be served again. */
    private final Consumer<Partition> unlocked;
    /** Told of each partition a task in flight leaves: below its cap, it may be served again. */
    private final Consumer<Partition> freed;
    /** Told of each task whose cancellation was asked as it leaves (its record goes with it). */
    private final Consumer<Lease> cancelledLeft;
    /** Cancellations asked, extensions and progress of the tasks in flight. */
    private final InFlightControls controls = new InFlightControls();
    /** How many tasks in flight have a processing timeout of their own. */
    private int withOwnTimeout;

    Holdings(Consumer<Partition> unlocked, Consumer<Partition> freed, Consumer<Lease> cancelledLeft) {
        this.unlocked = unlocked;
        this.freed = freed;
        this.cancelledLeft = cancelledLeft;
    }

    /** A task whose cancellation was asked leaves its holder's hands, and with them the queue. */
    void dropCancelled(Lease lease) {
        unhold(lease.id());
        cancelledLeft.accept(lease);
    }

    int inFlightOf(Partition partition) {
        return inFlight.getOrDefault(partition, 0);
    }

    /** Whether the partition has as many tasks in flight as {@code cap}, or more; never with no cap (0). */
    boolean atCap(Partition partition, int cap) {
        return cap > 0 && inFlightOf(partition) >= cap;
    }

    /** How many partitions are at their cap ({@code capOf}) and pass {@code counted}. */
    long countAtCap(ToIntFunction<Partition> capOf, Predicate<Partition> counted) {
        return inFlight.keySet().stream().filter(partition -> atCap(partition, capOf.applyAsInt(partition))
                && counted.test(partition)).count();
    }

    Lease get(TaskId id) {
        return held.get(id);
    }

    InFlightControls controls() {
        return controls;
    }

    boolean contains(TaskId id) {
        return held.containsKey(id);
    }

    int size() {
        return held.size();
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    Collection<Lease> all() {
        return held.values();
    }

    /** The consumer's lease on the task, or null if it does not hold it. */
    Lease heldBy(ConsumerId consumer, TaskId id) {
        Lease lease = held.get(id);
        return lease != null && lease.consumer().equals(consumer) ? lease : null;
    }

    void hold(Lease lease) {
        held.put(lease.id(), lease);
        heldByConsumer.computeIfAbsent(lease.consumer(), consumer -> new HashMap<>())
                .computeIfAbsent(lease.partition(), partition -> new TreeSet<>(LEASE_BY_KEY))
                .add(lease);
        inFlight.merge(lease.partition(), 1, Integer::sum);
        if (!lease.task().timeout().isZero()) {
            withOwnTimeout++;
        }
    }

    /** Whether a task in flight may have a deadline though the queue has no processing timeout. */
    boolean anyOwnDeadline() {
        return withOwnTimeout > 0 || controls.anyExtended();
    }

    void unhold(TaskId id) {
        Lease lease = held.remove(id);
        if (lease == null) {
            return;
        }
        controls.forget(id);
        if (!lease.task().timeout().isZero()) {
            withOwnTimeout--;
        }
        inFlight.computeIfPresent(lease.partition(), (partition, n) -> n > 1 ? n - 1 : null);
        freed.accept(lease.partition());
        Map<Partition, TreeSet<Lease>> byPartition = heldByConsumer.get(lease.consumer());
        TreeSet<Lease> inPartition = byPartition.get(lease.partition());
        inPartition.remove(lease);
        if (inPartition.isEmpty()) {
            byPartition.remove(lease.partition());
            if (byPartition.isEmpty()) {
                heldByConsumer.remove(lease.consumer());
            }
        }
    }

    /** Everything a consumer holds, in seq order. */
    List<Lease> heldBy(ConsumerId consumer) {
        return heldByConsumer.getOrDefault(consumer, Map.of()).values().stream()
                .flatMap(Collection::stream)
                .sorted(Comparator.comparing((Lease lease) -> lease.task().seq()))
                .toList();
    }

    /** The consumers holding tasks. */
    Set<ConsumerId> holders() {
        return heldByConsumer.keySet();
    }

    /** The partitions a consumer holds tasks of. */
    Set<Partition> partitionsHeldBy(ConsumerId consumer) {
        return Set.copyOf(heldByConsumer.getOrDefault(consumer, Map.of()).keySet());
    }

    /** What a consumer holds of one partition, in key order. */
    List<Lease> heldInPartition(ConsumerId consumer, Partition partition) {
        TreeSet<Lease> inPartition = heldByConsumer.getOrDefault(consumer, Map.of()).get(partition);
        return inPartition == null ? List.of() : List.copyOf(inPartition);
    }

    private boolean holdsAnyOf(ConsumerId consumer, Partition partition) {
        return heldByConsumer.getOrDefault(consumer, Map.of()).containsKey(partition);
    }

    // ---------------------------------------------------------------- locks

    void lock(Partition partition, ConsumerId consumer, long now) {
        locks.put(partition, consumer);
        lockedAt.put(partition, now);
    }

    boolean isLocked(Partition partition) {
        return locks.containsKey(partition);
    }

    int lockCount() {
        return locks.size();
    }

    /** Each locked partition and its holder. */
    Map<Partition, ConsumerId> locks() {
        return locks;
    }

    long lockedAt(Partition partition) {
        return lockedAt.get(partition);
    }

    /** A consumer holds a lock only while it holds a task of the partition. */
    void releaseLockIfDone(ConsumerId consumer, Partition partition) {
        if (consumer.equals(locks.get(partition)) && !holdsAnyOf(consumer, partition)) {
            unlock(partition);
        }
    }

    /** The locks a dead consumer held of these partitions go, whatever it still holds. */
    void releaseLocksOf(ConsumerId consumer, Set<Partition> partitions) {
        for (Partition partition : partitions) {
            if (consumer.equals(locks.get(partition))) {
                unlock(partition);
            }
        }
    }

    private void unlock(Partition partition) {
        locks.remove(partition);
        lockedAt.remove(partition);
        unlocked.accept(partition);
    }

    // ---------------------------------------------------------------- giving back

    /**
     * Takes the named tasks back from the consumer and, per ordered partition, every task it holds
     * after the lowest named one (SPEC rule 5). {@code giveBack} decides each task's fate; its
     * second argument says whether the task was named in the call. A task whose cancellation was asked is
     * deleted instead, {@code cancelled}.
     */
    <O> Map<TaskId, O> giveBack(ConsumerId consumer, List<TaskId> ids, BiFunction<Lease, Boolean, O> giveBack,
                                O leaseLost, O cancelled) {
        Map<TaskId, O> outcomes = new LinkedHashMap<>();
        Set<TaskId> named = new HashSet<>();
        Map<Partition, Lease> lowestNamedByOrderedPartition = new LinkedHashMap<>();
        for (TaskId id : ids) {
            Lease lease = heldBy(consumer, id);
            if (lease == null) {
                if (!named.contains(id)) {
                    outcomes.putIfAbsent(id, leaseLost);
                }
                continue;
            }
            named.add(id);
            outcomes.put(id, null);
            if (lease.partition().isOrdered()) {
                lowestNamedByOrderedPartition.merge(lease.partition(), lease,
                        (a, b) -> a.task().orderingKey().compareTo(b.task().orderingKey()) <= 0 ? a : b);
            }
        }
        List<Lease> affected = new ArrayList<>();
        for (TaskId id : named) {
            affected.add(held.get(id));
        }
        for (Lease lowest : lowestNamedByOrderedPartition.values()) {
            heldInPartition(consumer, lowest.partition()).stream()
                    .filter(lease -> !named.contains(lease.id()))
                    .filter(lease -> lease.task().orderingKey().compareTo(lowest.task().orderingKey()) > 0)
                    .forEach(affected::add);
        }
        // Key order per partition, so tasks re-enter their partitions the way they left.
        affected.sort(Comparator.comparing((Lease lease) -> lease.task().seq()));
        Map<TaskId, O> decided = new HashMap<>();
        for (Lease lease : affected) {
            if (controls.isCancelRequested(lease.id())) {
                dropCancelled(lease);
                decided.put(lease.id(), cancelled);
            } else {
                unhold(lease.id());
                decided.put(lease.id(), giveBack.apply(lease, named.contains(lease.id())));
            }
        }
        for (Lease lease : affected) {
            releaseLockIfDone(consumer, lease.partition());
        }
        outcomes.replaceAll((id, outcome) -> outcome == null ? decided.get(id) : outcome);
        affected.stream().filter(lease -> !named.contains(lease.id()))
                .sorted(Comparator.comparing((Lease lease) -> lease.task().orderingKey()))
                .forEach(lease -> outcomes.put(lease.id(), decided.get(lease.id())));
        return outcomes;
    }
}
