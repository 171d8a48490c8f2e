package io.ordo.runtime.worker;

import io.ordo.domain.TaskId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** The tasks a worker holds, bounded by the prefetch: the fetcher waits here for room. */
final class HeldTasks {
    private final Map<TaskId, HeldTask> tasks = new ConcurrentHashMap<>();
    private final Object room = new Object();

    void add(HeldTask task) {
        tasks.put(task.lease.id(), task);
        task.incarnation.track(1);
    }

    void remove(HeldTask task) {
        if (tasks.remove(task.lease.id(), task)) {
            task.incarnation.untrack();
            synchronized (room) {
                room.notifyAll();
            }
        }
    }

    int size() {
        return tasks.size();
    }

    /** Waits until fewer than {@code limit} tasks are held or {@code stop} says to give up; the free room. */
    int awaitRoom(int limit, BooleanSupplier stop) throws InterruptedException {
        synchronized (room) {
            while (tasks.size() >= limit && !stop.getAsBoolean()) {
                room.wait(100);
            }
        }
        return Math.max(0, limit - tasks.size());
    }

    /** Waits until nothing is held, {@code stop} says to give up or {@code timeout} passes; whether nothing is held. */
    boolean awaitEmpty(Duration timeout, BooleanSupplier stop) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (room) {
            while (!tasks.isEmpty() && !stop.getAsBoolean() && System.nanoTime() < deadline) {
                room.wait(Math.max(1, Math.min(100, (deadline - System.nanoTime()) / 1_000_000)));
            }
        }
        return tasks.isEmpty();
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
