package io.ordo.inmemory;

import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongBiFunction;

/**
 * The in-memory store's waiting tasks in their partitions, the partition blocks, and the serving schedule
 * kept as they change (as Redis's {@code ready}, {@code delayed}, {@code wake} and {@code blocked}): the
 * partitions a consume may serve in serving order, and those time alone will change, so no consume scans
 * the partitions. Guarded by the store's monitor.
 */
final class WaitingTasks {
    private static final Comparator<PartitionState> SERVING_ORDER = Comparator
            .comparingInt((PartitionState state) -> -state.headPriority).thenComparingLong(state -> state.turn);
    private static final Comparator<PartitionState> TIMER_ORDER = Comparator
            .comparingLong((PartitionState state) -> state.timerAt).thenComparingLong(state -> state.serial);

    /** Tasks waiting in their partitions; a partition exists while it has one. */
    private final Map<Partition, PartitionState> partitions = new HashMap<>();
    /** Where each waiting task is, by id. */
    private final Map<TaskId, Task> waiting = new HashMap<>();
    /** The same waiting tasks by when they are ready (stats). */
    private final WaitingByReadyTime waitingByReadyTime = new WaitingByReadyTime();
    private final Map<Partition, Long> blockedUntil = new HashMap<>();
    /** Partitions a consume may serve now: highest head priority first, then least recently served. */
    private final TreeSet<PartitionState> eligible = new TreeSet<>(SERVING_ORDER);
    /** Partitions that time alone will change (a task becoming ready, a block ending), earliest first. */
    private final TreeSet<PartitionState> timed = new TreeSet<>(TIMER_ORDER);
    /** Partitions changed since the last consume, looked at again by the next one. */
    private final Set<PartitionState> touched = new LinkedHashSet<>();
    /** Whether a partition is held back whatever the time: an ordered one locked, a capped one at its cap. */
    private final Predicate<Partition> locked;
    /** Until when a partition's rate limit holds it back (after its last token went), or 0. */
    private final ToLongBiFunction<Partition, Long> throttledUntil;
    private long lastTurn;

    WaitingTasks(Predicate<Partition> locked, ToLongBiFunction<Partition, Long> throttledUntil) {
        this.locked = locked;
        this.throttledUntil = throttledUntil;
    }

    Task get(TaskId id) {
        return waiting.get(id);
    }

    boolean contains(TaskId id) {
        return waiting.containsKey(id);
    }

    int size() {
        return waiting.size();
    }

    /** Whether the partition has a task waiting. */
    boolean hasPartition(Partition partition) {
        return partitions.containsKey(partition);
    }

    int partitionCount() {
        return partitions.size();
    }

    Collection<PartitionState> partitions() {
        return partitions.values();
    }

    long readyCount(long now) {
        return waitingByReadyTime.readyCount(now);
    }

    OptionalLong oldestReadyAt(long now) {
        return waitingByReadyTime.oldestReadyAt(now);
    }

    /** The partition's tasks and order, or null when it has none waiting. */
    PartitionState state(Partition partition) {
        return partitions.get(partition);
    }

    long notReadyCount(long now) {
        return waitingByReadyTime.notReadyCount(now);
    }

    /** Waiting tasks not ready at {@code now}, in TaskListing.DELAYED_ORDER. */
    java.util.List<Task> notReady(long now, int offset, int limit) {
        return waitingByReadyTime.notReady(now, offset, limit);
    }

    void put(Task task) {
        PartitionState state = partitions.computeIfAbsent(task.partition(),
                partition -> new PartitionState(partition, ++lastTurn));
        state.add(task);
        waiting.put(task.id(), task);
        waitingByReadyTime.add(task);
        touched.add(state);
    }

    void remove(Task task) {
        PartitionState state = partitions.get(task.partition());
        state.remove(task);
        waiting.remove(task.id());
        waitingByReadyTime.remove(task);
        touched.add(state);
        dropIfEmpty(state);
    }

    private void dropIfEmpty(PartitionState state) {
        if (state.isEmpty()) {
            partitions.remove(state.partition);
            unschedule(state);
            touched.remove(state);
        }
    }

    /** Every partition is looked at again by the next consume (the settings changed). */
    void touchAll() {
        touched.addAll(partitions.values());
    }

    /** The partition changed in a way the schedule must look at again (a lock, block or cap came or went). */
    void touch(Partition partition) {
        PartitionState state = partitions.get(partition);
        if (state != null) {
            touched.add(state);
        }
    }

    // ---------------------------------------------------------------- serving

    /** Looks again at the partitions changed since the last consume and at those whose time has come. */
    void settle(long now) {
        for (PartitionState state : touched) {
            refresh(state, now);
        }
        touched.clear();
        while (!timed.isEmpty() && timed.first().timerAt <= now) {
            refresh(timed.first(), now);
        }
    }

    /** The partition a consume serves next, out of the eligible ones; null if none is. */
    PartitionState nextToServe() {
        PartitionState state = eligible.pollFirst();
        if (state != null) {
            state.eligible = false;
        }
        return state;
    }

    /** A partition just served goes behind the others of its priority. */
    void served(PartitionState state, long now) {
        state.turn = ++lastTurn;
        refresh(state, now);
    }

    /**
     * Puts a partition where it belongs now: eligible (not blocked, not locked or at its cap, not out of tokens,
     * head ready: semantics.md)
     * in serving order, and timed if time alone will change that; a partition without tasks nowhere.
     */
    private void refresh(PartitionState state, long now) {
        unschedule(state);
        if (partitions.get(state.partition) != state) {
            return; // emptied since
        }
        long timer = state.nextChangeAfter(now);
        boolean blocked = isBlocked(state.partition, now);
        if (blocked) {
            timer = Math.min(timer, blockedUntil.get(state.partition));
        } else if (!locked.test(state.partition)) {
            long throttled = throttledUntil.applyAsLong(state.partition, now);
            Optional<Task> head = throttled > now ? Optional.empty() : state.head(now);
            if (throttled > now) {
                timer = Math.min(timer, throttled); // out of tokens: looked at again at its next token
            } else if (head.isPresent()) {
                state.headPriority = head.get().priority().value();
                state.eligible = true;
                eligible.add(state);
            }
        }
        if (timer != PartitionState.NO_TIMER) {
            state.timerAt = timer;
            timed.add(state);
        }
    }

    private void unschedule(PartitionState state) {
        if (state.eligible) {
            eligible.remove(state);
            state.eligible = false;
        }
        if (state.timerAt != PartitionState.NO_TIMER) {
            timed.remove(state);
            state.timerAt = PartitionState.NO_TIMER;
        }
    }

    // ---------------------------------------------------------------- blocks

    void block(Partition partition, long until) {
        blockedUntil.put(partition, until);
        touch(partition);
    }

    /** Blocked until then at least: a later block already there stays. */
    void blockAtLeastUntil(Partition partition, long until) {
        blockedUntil.merge(partition, until, Math::max);
        touch(partition);
    }

    void unblock(Partition partition) {
        blockedUntil.remove(partition);
        touch(partition);
    }

    boolean isBlocked(Partition partition, long now) {
        Long until = blockedUntil.get(partition);
        if (until != null && until <= now) {
            blockedUntil.remove(partition);
            return false;
        }
        return until != null;
    }

    long blockedCount(long now) {
        return new ArrayList<>(blockedUntil.keySet()).stream().filter(partition -> isBlocked(partition, now)).count();
    }

    /** Each partition with a block and when it ends (ended ones included until looked at). */
    Map<Partition, Long> blocks() {
        return blockedUntil;
    }

    boolean hasBlocks() {
        return !blockedUntil.isEmpty();
    }
}
