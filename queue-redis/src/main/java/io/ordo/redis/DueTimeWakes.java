package io.ordo.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Wakes a queue's blocked consumers when the delay or block they nap for runs out. A waiting consume
 * naps in {@code BLPOP} until the earliest due time it was told, but Redis ends a {@code BLPOP} on its
 * timeout only at its next timer tick (every 1000/hz ms: 100 ms at the default {@code hz 10}), so the
 * task would be served up to that late. At the due time this runs the queue's {@code wake} function
 * instead, which applies what fell due and pushes the signal that ends a {@code BLPOP} at once. One
 * timer thread per factory, started with the first wake; one wake per queue and due time, however many
 * of its consumers wait for it.
 */
final class DueTimeWakes {
    /** Past the due time, so the server's clock (whole milliseconds) has surely reached it. */
    private static final long MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Consumers told the same due time reckon it this far apart at most (their replies' latencies), never
     * before it: a wake scheduled this close does for them all.
     */
    private static final long SHARED_WITHIN_MILLIS = 3;

    private final Consumer<KeySchema> wake;
    /** By queue (key prefix): the due times of its wakes to come, in ms of {@link System#nanoTime()}. */
    private final Map<String, TreeSet<Long>> scheduled = new HashMap<>();
    private ScheduledExecutorService timer;
    private boolean closed;

    /** @param wake runs the queue's wake function; a failure is ignored (the {@code BLPOP} ends on its own timeout) */
    DueTimeWakes(Consumer<KeySchema> wake) {
        this.wake = wake;
    }

    /** Wakes the queue's waiting consumers {@code untilDue} from now. */
    synchronized void wakeAfter(KeySchema keys, Duration untilDue) {
        ScheduledExecutorService running = timer();
        if (running == null) {
            return; // closed
        }
        long delayNanos = untilDue.toNanos() + MARGIN_NANOS;
        long dueMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() + delayNanos);
        TreeSet<Long> queueWakes = scheduled.computeIfAbsent(keys.prefix(), prefix -> new TreeSet<>());
        Long near = queueWakes.ceiling(dueMillis - SHARED_WITHIN_MILLIS);
        if (near != null && near <= dueMillis + SHARED_WITHIN_MILLIS) {
            return; // another consumer of the queue already has this wake coming
        }
        queueWakes.add(dueMillis);
        try {
            running.schedule(() -> run(keys, dueMillis), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            queueWakes.remove(dueMillis); // closed meanwhile
        }
    }

    private void run(KeySchema keys, long dueMillis) {
        synchronized (this) {
            TreeSet<Long> queueWakes = scheduled.get(keys.prefix());
            queueWakes.remove(dueMillis);
            if (queueWakes.isEmpty()) {
                scheduled.remove(keys.prefix());
            }
        }
        try {
            wake.accept(keys);
        } catch (RuntimeException e) {
            // the consumers' BLPOP ends on its own timeout: late, never lost
        }
    }

    private ScheduledExecutorService timer() {
        if (timer == null && !closed) {
            timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "ordo-due-time-wakes");
                thread.setDaemon(true);
                return thread;
            });
        }
        return closed ? null : timer;
    }

    synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
