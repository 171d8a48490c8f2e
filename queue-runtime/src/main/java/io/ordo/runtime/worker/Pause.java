package io.ordo.runtime.worker;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * A wait on the {@link Scheduler}'s time that {@link #cut()} ends at once for every waiter, for
 * good. Backoff pauses use it so shutdown never waits out a backoff.
 */
final class Pause {
    private final Scheduler scheduler;
    private final Set<CountDownLatch> waiting = new HashSet<>();
    private boolean cut;

    Pause(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Waits for the duration; false when the pause was cut (before or during the wait). */
    boolean await(Duration duration) {
        CountDownLatch woken = new CountDownLatch(1);
        synchronized (waiting) {
            if (cut) {
                return false;
            }
            waiting.add(woken);
        }
        Scheduler.Cancellable alarm = scheduler.schedule(woken::countDown, duration);
        try {
            woken.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            alarm.cancel();
            synchronized (waiting) {
                waiting.remove(woken);
            }
        }
        synchronized (waiting) {
            return !cut;
        }
    }

    void cut() {
        synchronized (waiting) {
            cut = true;
            waiting.forEach(CountDownLatch::countDown);
        }
    }

    boolean isCut() {
        synchronized (waiting) {
            return cut;
        }
    }
}
