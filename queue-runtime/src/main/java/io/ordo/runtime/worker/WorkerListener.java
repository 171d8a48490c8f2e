package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.Progress;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.ScheduleFiring;

import java.time.Duration;

/**
 * Hears what a worker does; metrics, progress displays and task logs are listeners. Called on the
 * worker's threads, so an implementation must be quick and thread-safe and must not throw.
 */
public interface WorkerListener {
    /** The worker has started fetching. */
    default void started(Worker<?> worker) {
    }

    /** A handler is about to run for this delivery. */
    default void taskStarted(Lease lease) {
    }

    /**
     * A handler returned (or threw) after {@code took}; {@code error} is present when it threw. Not told of a
     * handler told its task was cancelled: {@link #taskCancelled} is, in its place.
     */
    default void handlerFinished(Lease lease, Outcome outcome, Throwable error, Duration took) {
    }

    /**
     * The run of a task whose cancellation was asked ended as {@code run} (its settlement follows:
     * {@link Settlement#CANCELLED} as a rule).
     */
    default void taskCancelled(Lease lease, CancelledRun run) {
    }

    /** A handler asked to extend its task's lease ({@link TaskContext#extendLease}); the store answered {@code outcome}. */
    default void leaseExtended(Lease lease, ExtendOutcome outcome) {
    }

    /** A handler reported how far it has come with the task (sent with the next heartbeat). */
    default void progressReported(Lease lease, Progress progress) {
    }

    /** A task left the worker's hands. */
    default void taskSettled(Lease lease, Settlement settlement) {
    }

    /** A fetch returned {@code count} tasks (possibly none) after {@code took}. */
    default void fetched(int count, Duration took) {
    }

    /** A fetch failed; the next one is tried after {@code retryIn}. */
    default void fetchFailed(RuntimeException error, Duration retryIn) {
    }

    /** The worker's reaper fired the queue's due schedules ({@code firing} handled at least one). */
    default void schedulesFired(ScheduleFiring firing) {
    }

    /** The backend stopped answering (called once per outage, not per failed call). */
    default void backendDown(RuntimeException error) {
    }

    /** The backend answers again after an outage of {@code outage}. */
    default void backendUp(Duration outage) {
    }

    /** Shutdown began: no more fetching. */
    default void stopping() {
    }

    /** Shutdown is over: nothing is held, nothing runs. */
    default void stopped() {
    }
}
