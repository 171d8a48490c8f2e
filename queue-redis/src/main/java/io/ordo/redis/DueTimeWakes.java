package io.ordo.redis;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
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

    private final Consumer<KeySchema> wake;
    private final Set<String> scheduled = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService timer;
    private boolean closed;

    /** @param wake runs the queue's wake function; a failure is ignored (the {@code BLPOP} ends on its own timeout) */
    DueTimeWakes(Consumer<KeySchema> wake) {
        this.wake = wake;
    }

    /** Wakes the queue's waiting consumers {@code untilDue} from now. */
    void wakeAfter(KeySchema keys, Duration untilDue) {
        long delayNanos = untilDue.toNanos() + MARGIN_NANOS;
        String key = keys.prefix() + '@' + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() + delayNanos);
        if (!scheduled.add(key)) {
            return; // another consumer of the queue already has this wake coming
        }
        ScheduledExecutorService running = timer();
        if (running == null) {
            return;
        }
        running.schedule(() -> {
            scheduled.remove(key);
            try {
                wake.accept(keys);
            } catch (RuntimeException e) {
                // the consumers' BLPOP ends on its own timeout: late, never lost
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
    }

    private synchronized ScheduledExecutorService timer() {
        if (timer == null && !closed) {
            timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "ordo-due-time-wakes");
                thread.setDaemon(true);
                return thread;
            });
        }
        return timer;
    }

    synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
