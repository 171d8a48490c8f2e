package io.ordo.runtime.worker;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Whether the backend answers, as every store call of the worker sees it. Logs and tells the
 * listeners once per change of state, never per failed call, so an outage is two log lines.
 */
final class BackendStatus {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final QueueName queue;
    private final Clock clock;
    private final WorkerListener listener;
    private boolean reachable = true;
    private long downSince;

    BackendStatus(QueueName queue, Clock clock, WorkerListener listener) {
        this.queue = queue;
        this.clock = clock;
        this.listener = listener;
    }

    void succeeded() {
        Duration outage;
        synchronized (this) {
            if (reachable) {
                return;
            }
            reachable = true;
            outage = Duration.ofMillis(Math.max(0, clock.millis() - downSince));
        }
        LOG.info("queue {}: the backend answers again after {} ms; resuming", queue, outage.toMillis());
        listener.backendUp(outage);
    }

    void failed(RuntimeException error) {
        synchronized (this) {
            if (!reachable) {
                return;
            }
            reachable = false;
            downSince = clock.millis();
        }
        LOG.warn("queue {}: the backend does not answer ({}); not ready, retrying with backoff until it does",
                queue, oneLine(error));
        listener.backendDown(error);
    }

    synchronized boolean reachable() {
        return reachable;
    }

    static String oneLine(Throwable error) {
        String message = error.getMessage();
        return message == null ? error.getClass().getName() : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
