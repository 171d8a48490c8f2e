package io.ordo.runtime.worker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * A job that runs again {@code interval} after each run ends, so a slow run never overlaps the
 * next; the interval is asked anew each time (it follows the queue's heartbeat TTL).
 */
final class PeriodicJob {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicJob.class);

    private final Scheduler scheduler;
    private final Supplier<Duration> interval;
    private final Runnable body;
    private final String name;
    private Scheduler.Cancellable next;
    private boolean cancelled;

    PeriodicJob(String name, Scheduler scheduler, Supplier<Duration> interval, Runnable body) {
        this.name = name;
        this.scheduler = scheduler;
        this.interval = interval;
        this.body = body;
    }

    synchronized void start(Duration firstDelay) {
        next = scheduler.schedule(this::run, firstDelay);
    }

    synchronized void cancel() {
        cancelled = true;
        if (next != null) {
            next.cancel();
        }
    }

    private void run() {
        synchronized (this) {
            if (cancelled) {
                return;
            }
        }
        try {
            body.run();
        } catch (RuntimeException e) {
            // the body reports its own failures; this is a bug, and the schedule must survive it
            LOG.error("{} failed unexpectedly", name, e);
        }
        synchronized (this) {
            if (!cancelled) {
                next = scheduler.schedule(this::run, interval.get());
            }
        }
    }
}
