package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.QueueName;
import io.ordo.ports.StoreClosedException;
import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The store's factory was closed under the running worker. Not an outage to wait out: nothing the
 * worker holds can be settled any more (the store returns it once its consumer's heartbeat expires),
 * so the worker stops. Whichever part of the worker meets the closed store first raises the alarm;
 * it is said once.
 */
final class StoreClosedAlarm {
    private final Logger log;
    private final QueueName queue;
    private final Supplier<ConsumerId> consumer;
    private final Runnable stopWorker;
    private final AtomicBoolean raised = new AtomicBoolean();

    /** @param stopWorker stops the worker on a thread of its own, as the caller may be one the stop waits for */
    StoreClosedAlarm(Logger log, QueueName queue, Supplier<ConsumerId> consumer, Runnable stopWorker) {
        this.log = log;
        this.queue = queue;
        this.consumer = consumer;
        this.stopWorker = stopWorker;
    }

    void raise(StoreClosedException e) {
        if (!raised.compareAndSet(false, true)) {
            return;
        }
        log.error("queue {}: the store was closed under running worker {} (its factory was closed before the worker"
                + " was stopped); stopping the worker, what it holds returns to the queue when its heartbeat expires ({})",
                queue, consumer.get(), e.getMessage());
        stopWorker.run();
    }

    boolean raised() {
        return raised.get();
    }
}
