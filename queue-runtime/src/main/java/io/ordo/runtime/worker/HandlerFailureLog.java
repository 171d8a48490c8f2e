package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import org.slf4j.Logger;

import java.time.Duration;

/**
 * Logs a handler's failures with their stack traces, at most {@link #PER_WINDOW} per {@link #WINDOW}
 * (a flood of failing tasks must not flood the log); the next window begins by saying how many were
 * left out. The failures still reach listeners and metrics one by one.
 */
final class HandlerFailureLog {
    static final int PER_WINDOW = 10;
    static final Duration WINDOW = Duration.ofMinutes(1);

    private final Logger log;
    private final QueueName queue;
    private final Clock clock;
    private long windowStart = Long.MIN_VALUE;
    private int logged;
    private long leftOut;

    HandlerFailureLog(Logger log, QueueName queue, Clock clock) {
        this.log = log;
        this.queue = queue;
        this.clock = clock;
    }

    /** The handler of {@code lease} failed with {@code error}; {@code consequence} says what becomes of the task. */
    void failed(Lease lease, Throwable error, String consequence) {
        long leftOutBefore;
        synchronized (this) {
            long now = clock.millis();
            leftOutBefore = 0;
            if (windowStart == Long.MIN_VALUE || now - windowStart >= WINDOW.toMillis()) {
                leftOutBefore = leftOut;
                windowStart = now;
                logged = 0;
                leftOut = 0;
            }
            if (logged >= PER_WINDOW) {
                leftOut++;
                return;
            }
            logged++;
        }
        if (leftOutBefore > 0) {
            log.warn("queue {}: {} more handler failure(s) were not logged (at most {} are per {} s)", queue,
                    leftOutBefore, PER_WINDOW, WINDOW.toSeconds());
        }
        log.warn("queue {}: the handler failed on task {} (attempt {}); {}", queue, lease.id(),
                lease.task().attempts(), consequence, error);
    }
}
