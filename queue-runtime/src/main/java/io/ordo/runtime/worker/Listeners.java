package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.Progress;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.ScheduleFiring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** Every listener of a worker as one; a listener that throws is logged and does not stop the others. */
final class Listeners implements WorkerListener {
    private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

    private final List<WorkerListener> listeners;

    Listeners(List<WorkerListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void started(Worker<?> worker) {
        each(listener -> listener.started(worker));
    }

    @Override
    public void taskStarted(Lease lease) {
        each(listener -> listener.taskStarted(lease));
    }

    @Override
    public void handlerFinished(Lease lease, Outcome outcome, Throwable error, Duration took) {
        each(listener -> listener.handlerFinished(lease, outcome, error, took));
    }

    @Override
    public void taskCancelled(Lease lease, CancelledRun run) {
        each(listener -> listener.taskCancelled(lease, run));
    }

    @Override
    public void leaseExtended(Lease lease, ExtendOutcome outcome) {
        each(listener -> listener.leaseExtended(lease, outcome));
    }

    @Override
    public void progressReported(Lease lease, Progress progress) {
        each(listener -> listener.progressReported(lease, progress));
    }

    @Override
    public void taskSettled(Lease lease, Settlement settlement) {
        each(listener -> listener.taskSettled(lease, settlement));
    }

    @Override
    public void fetched(int count, Duration took) {
        each(listener -> listener.fetched(count, took));
    }

    @Override
    public void fetchFailed(RuntimeException error, Duration retryIn) {
        each(listener -> listener.fetchFailed(error, retryIn));
    }

    @Override
    public void schedulesFired(ScheduleFiring firing) {
        each(listener -> listener.schedulesFired(firing));
    }

    @Override
    public void backendDown(RuntimeException error) {
        each(listener -> listener.backendDown(error));
    }

    @Override
    public void backendUp(Duration outage) {
        each(listener -> listener.backendUp(outage));
    }

    @Override
    public void stopping() {
        each(WorkerListener::stopping);
    }

    @Override
    public void stopped() {
        each(WorkerListener::stopped);
    }

    private void each(Consumer<WorkerListener> call) {
        for (WorkerListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                LOG.error("worker listener {} failed", listener, e);
            }
        }
    }
}
