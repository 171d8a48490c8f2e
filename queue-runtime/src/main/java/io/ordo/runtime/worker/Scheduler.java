package io.ordo.runtime.worker;

import java.time.Duration;

/**
 * Runs the worker's timed jobs (heartbeats, the reaper, gauge refreshes) and ends its pauses
 * (backoff while the backend is unreachable). A port, so tests run them on virtual time and
 * assert exact schedules without waiting.
 */
public interface Scheduler extends AutoCloseable {
    /** Runs the job once after the delay, on a thread of the scheduler's; never on the caller's. */
    Cancellable schedule(Runnable job, Duration delay);

    /** Stops running jobs; a scheduler shared by several workers is closed by whoever made it. */
    @Override
    void close();

    /** Wall time, on two daemon threads. */
    static Scheduler system() {
        return new SystemScheduler();
    }

    /** A scheduled job that has not run yet can be called off. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }
}
