package io.ordo.runtime.worker;

import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
import io.ordo.domain.Text;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.Ticker;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Runs one unit of held tasks on a handler thread (a regular task alone, an ordered batch in order):
 * checks each task's lease is still good and not overdue, decodes its payload, calls the handler
 * (both inside the worker's {@link DeliveryInterceptor}s), and hands the outcome to the {@link Settler}. A handler that throws is a failed attempt, retried
 * after the retry policy's backoff; an undecodable payload is a poison task and becomes a dead letter.
 *
 * @param <T> the payload type
 */
final class TaskRunner<T> {
    private final QueueName queue;
    private final Logger log;
    private final Class<T> type;
    private final TaskHandler<? super T> handler;
    private final PayloadCodec codec;
    private final Clock clock;
    private final Ticker ticker;
    private final Settler settler;
    private final TimeoutWatch timeouts;
    private final HandlerThreads threads;
    private final Cancellations cancellations;
    private final TaskLeases leases;
    private final Supplier<Duration> heartbeatTtl;
    private final WorkerListener listener;
    private final HandlerFailureLog failures;
    private final Backoff retryDelay;
    private final BooleanSupplier stopping;
    private final DeliveryInterceptor interceptor;

    /**
     * @param heartbeatTtl the queue's heartbeat TTL as last heard: a name not renewed for that long has lost its leases
     * @param retryDelay   the backoff after a task's so many attempts (the task's own policy, if it has one)
     * @param stopping     whether the worker is shutting down (every task's context asks it)
     * @param interceptor  what every handler run passes through ({@link DeliveryInterceptor#NONE}: nothing)
     */
    TaskRunner(QueueName queue, Logger log, Class<T> type, TaskHandler<? super T> handler, PayloadCodec codec,
               Clock clock, Ticker ticker, Settler settler, TimeoutWatch timeouts, HandlerThreads threads,
               Cancellations cancellations, TaskLeases leases, Supplier<Duration> heartbeatTtl,
               WorkerListener listener, HandlerFailureLog failures, Backoff retryDelay,
               BooleanSupplier stopping, DeliveryInterceptor interceptor) {
        this.queue = queue;
        this.log = log;
        this.type = type;
        this.handler = handler;
        this.codec = codec;
        this.clock = clock;
        this.ticker = ticker;
        this.settler = settler;
        this.timeouts = timeouts;
        this.threads = threads;
        this.cancellations = cancellations;
        this.leases = leases;
        this.heartbeatTtl = heartbeatTtl;
        this.listener = listener;
        this.failures = failures;
        this.retryDelay = retryDelay;
        this.stopping = stopping;
        this.interceptor = interceptor;
    }

    void run(List<HeldTask> unit) {
        for (int i = 0; i < unit.size(); i++) {
            HeldTask task = unit.get(i);
            long now = clock.millis();
            if (!task.incarnation.leaseValidAt(now, heartbeatTtl.get().toMillis())) {
                abandon(unit.subList(i, unit.size()));
                return;
            }
            if (timeouts.overdue(task, now)) {
                timeouts.giveUp(unit.subList(i, unit.size()));
                return;
            }
            List<HeldTask> rest = unit.subList(i + 1, unit.size());
            if (task.cancelRequested() && task.claimQueued()) {
                cancellations.notStarted(task, rest);
                return;
            }
            if (!task.start()) {
                return; // returned at shutdown or given up, and the rest of its batch with it
            }
            if (!handle(task, rest)) {
                return;
            }
        }
    }

    /**
     * Runs the handler and settles the task (given back if the handler was told of its cancellation); whether
     * the rest of its ordered batch goes on.
     */
    private boolean handle(HeldTask task, List<HeldTask> rest) {
        Lease lease = task.lease;
        listener.taskStarted(lease);
        long startNanos = ticker.nanos();
        HandlerResult result = intercepted(new TaskContext(queue, task, stopping, leases));
        Outcome outcome = result.outcome();
        Throwable error = result.error();
        Duration took = Duration.ofNanos(ticker.nanos() - startNanos);
        boolean cancelled = task.handlerReturned();
        if (!stopping.getAsBoolean()) {
            Thread.interrupted(); // a handler's stray interrupt must not reach the next task on this thread
        }
        if (!cancelled) {
            listener.handlerFinished(lease, outcome, error, took);
        }
        if (!task.finishRunning()) {
            if (task.givenUp()) {
                threads.givenUpHandlerReturned(task);
                log.info("queue {}: the handler of task {} returned after {} ms, after the worker gave up on it; its"
                        + " outcome is dropped", queue, lease.id(), took.toMillis());
                return false;
            }
            log.debug("queue {}: task {} finished after it was returned at shutdown; its outcome is dropped", queue, lease.id());
            return false;
        }
        if (cancelled) {
            cancellations.handlerStopped(task, rest);
            return false;
        }
        return settler.settle(task, outcome, rest);
    }

    /** The handler run through the interceptors; an interceptor that throws fails the attempt like a handler. */
    private HandlerResult intercepted(TaskContext context) {
        if (interceptor == DeliveryInterceptor.NONE) {
            return run(context);
        }
        try {
            HandlerResult result = interceptor.intercept(context, () -> run(context));
            if (result == null) {
                throw new IllegalStateException("a delivery interceptor returned no result; return next.proceed()");
            }
            return result;
        } catch (Throwable e) {
            return failed(context, e);
        }
    }

    /** Decodes the payload and calls the handler: what it returned, or what its exception comes to. */
    private HandlerResult run(TaskContext context) {
        Lease lease = context.lease();
        try {
            T payload = decode(lease);
            Outcome outcome = handler.handle(payload, context);
            if (outcome == null) {
                throw new IllegalStateException("the handler returned no outcome; return Outcome.success() when done");
            }
            return HandlerResult.returned(outcome instanceof Outcome.Result result ? result.encoded(codec) : outcome);
        } catch (UndecodablePayload e) {
            failures.failed(lease, e.getCause(), "its payload cannot be decoded as " + type.getName()
                    + ", so it becomes a dead letter");
            return HandlerResult.threw(e.getCause(), Outcome.fail("cannot decode the payload: "
                    + Text.withUnpairedSurrogatesReplaced(BackendStatus.oneLine(e.getCause()))));
        } catch (Throwable e) {
            return failed(context, e);
        }
    }

    /** Any failure of the handler, Errors included, is a failed attempt: the task comes back later. */
    private HandlerResult failed(TaskContext context, Throwable e) {
        Duration retryIn = retryDelay.after(context.task());
        // interrupted at the grace period's end, or stopped for a cancellation: no failure
        if (!(context.isCancelled() || stopping.getAsBoolean() && e instanceof InterruptedException)) {
            failures.failed(context.lease(), e, "it is retried in " + retryIn.toMillis()
                    + " ms, or becomes a dead letter if it has no attempts left");
        }
        return HandlerResult.threw(e, Outcome.retryAfter(retryIn, describe(e)));
    }

    private T decode(Lease lease) {
        try {
            return codec.decode(lease.task().payload(), type);
        } catch (RuntimeException e) {
            throw new UndecodablePayload(e);
        }
    }

    /** The lease's name was not renewed for a heartbeat TTL: its tasks may be another's now, so none starts. */
    private void abandon(List<HeldTask> rest) {
        List<HeldTask> abandoned = Settler.claimQueued(rest);
        if (abandoned.isEmpty()) {
            return;
        }
        Incarnation incarnation = abandoned.get(0).incarnation;
        incarnation.retire();
        log.warn("queue {}: {} not renewed for a heartbeat TTL; not starting {} held task(s), the reaper returns them",
                queue, incarnation.consumer, abandoned.size());
        abandoned.forEach(task -> settler.settled(task, Settlement.ABANDONED));
    }

    /**
     * The error class and message: what a dead letter carries. A message may hold any string, so an
     * unpaired surrogate in it becomes U+FFFD (a reason given by a caller with one is refused instead).
     */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return Text.withUnpairedSurrogatesReplaced(message == null || message.isBlank() ? error.getClass().getName()
                : error.getClass().getName() + ": " + message.strip().replaceAll("\\s*\\R\\s*", " "));
    }

    /** The payload could not be decoded: a poison task that no retry will fix. */
    private static final class UndecodablePayload extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UndecodablePayload(RuntimeException cause) {
            super(cause);
        }
    }
}
