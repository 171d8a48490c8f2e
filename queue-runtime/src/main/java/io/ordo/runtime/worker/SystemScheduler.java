package io.ordo.runtime.worker;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The scheduler on wall time. Two threads, so a heartbeat is not held up by a slow reaper call. */
final class SystemScheduler implements Scheduler {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final ScheduledThreadPoolExecutor executor;

    SystemScheduler() {
        int instance = INSTANCES.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        executor = new ScheduledThreadPoolExecutor(2, job -> {
            Thread thread = new Thread(job, "ordo-scheduler-" + instance + "-" + threads.incrementAndGet());
            thread.setDaemon(true); // timers never keep a JVM alive on their own
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Cancellable schedule(Runnable job, Duration delay) {
        ScheduledFuture<?> future = executor.schedule(job, delay.toNanos(), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
