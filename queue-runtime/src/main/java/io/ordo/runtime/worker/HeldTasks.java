package io.ordo.runtime.worker;

import io.ordo.domain.Progress;
import io.ordo.domain.TaskId;
import io.ordo.ports.Ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** The tasks a worker holds, bounded by the prefetch ({@link FetchSlots} hands out the room). */
final class HeldTasks {
    private final Map<TaskId, HeldTask> tasks = new ConcurrentHashMap<>();
    private final Object room = new Object();
    private final Runnable roomOpened;
    private final Ticker ticker;
    /** Threads in {@link #awaitAtMost}: only they need waking when a task goes. */
    private volatile int waiters;

    /**
     * @param roomOpened told whenever a task leaves
     * @param ticker     what {@link #awaitAtMost} measures its timeout on
     */
    HeldTasks(Runnable roomOpened, Ticker ticker) {
        this.roomOpened = roomOpened;
        this.ticker = ticker;
    }

    /**
     * Holds the task; returns the delivery of the same task this worker still held, if any (the store
     * took it back and handed it out again), which is no longer counted here.
     */
    HeldTask add(HeldTask task) {
        HeldTask previous = tasks.put(task.lease.id(), task);
        task.incarnation.track(1);
        if (previous != null) {
            previous.incarnation.untrack();
        }
        return previous;
    }

    void remove(HeldTask task) {
        if (removeQuietly(task)) {
            roomOpened.run();
        }
    }

    /**
     * Removes the task without telling {@code roomOpened} (whether it was held): a caller settling many
     * tasks at once tells it once with {@link #roomOpened()}, not once per task.
     */
    boolean removeQuietly(HeldTask task) {
        if (!tasks.remove(task.lease.id(), task)) {
            return false;
        }
        task.incarnation.untrack();
        if (waiters > 0) {
            wakeWaiters();
        }
        return true;
    }

    /** Tasks left by {@link #removeQuietly}. */
    void roomOpened() {
        roomOpened.run();
    }

    int size() {
        return tasks.size();
    }

    /**
     * The progress reports of tasks held under {@code incarnation} that no heartbeat has carried, taken for the next
     * one (at most the prefetch, under {@link io.ordo.domain.PublishRules#MAX_BATCH}). Tasks that left are not here,
     * so their reports are dropped.
     */
    Map<TaskId, Progress> takeProgress(Incarnation incarnation) {
        Map<TaskId, Progress> reports = new HashMap<>();
        for (HeldTask task : tasks.values()) {
            Progress report = task.incarnation == incarnation ? task.takeProgress() : null;
            if (report != null) {
                reports.put(task.lease.id(), report);
            }
        }
        return reports;
    }

    /** The delivery of that task the worker holds, if any. */
    HeldTask get(TaskId id) {
        return tasks.get(id);
    }

    /**
     * The tasks held under the same name after {@code task} in its ordered partition, in order: what the store
     * returns with it when it is given back (none for a regular task).
     */
    List<HeldTask> laterInBatch(HeldTask task) {
        if (!task.lease.partition().isOrdered()) {
            return List.of();
        }
        long seq = task.lease.task().seq();
        return tasks.values().stream()
                .filter(other -> other.lease.partition().equals(task.lease.partition())
                        && other.lease.consumer().equals(task.lease.consumer()) && other.lease.task().seq() > seq)
                .sorted(Comparator.comparingLong(other -> other.lease.task().seq()))
                .toList();
    }

    /**
     * Waits until at most {@code count} tasks are held, {@code stop} says to give up or {@code timeout}
     * passes; whether at most {@code count} are held.
     */
    boolean awaitAtMost(int count, Duration timeout, BooleanSupplier stop) throws InterruptedException {
        long deadline = ticker.nanos() + timeout.toNanos();
        synchronized (room) {
            waiters++;
            try {
                while (tasks.size() > count && !stop.getAsBoolean() && ticker.nanos() < deadline) {
                    room.wait(Math.max(1, Math.min(100, (deadline - ticker.nanos()) / 1_000_000)));
                }
            } finally {
                waiters--;
            }
        }
        return tasks.size() <= count;
    }

    void wakeWaiters() {
        synchronized (room) {
            room.notifyAll();
        }
    }

    List<HeldTask> snapshot() {
        return new ArrayList<>(tasks.values());
    }
}
