package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskStore;
import io.ordo.ports.Ticker;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.random.RandomGenerator;

/**
 * Takes tasks from one queue and hands their payloads to a {@link TaskHandler}: regular tasks
 * concurrently, each ordered batch in order on one thread. Acks what succeeds, retries what throws
 * with exponential backoff and jitter, heartbeats and reaps on its own schedule, rides out backend
 * outages, and stops gracefully (docs/decisions/worker-runtime.md).
 *
 * <pre>{@code
 * Worker<Deposit> worker = Worker.builder(store, Deposit.class, (deposit, context) -> {
 *             bank.credit(deposit.account(), deposit.cents());
 *             return Outcome.success();
 *         })
 *         .options(WorkerOptions.builder().concurrency(8).build())
 *         .build();
 * worker.start();
 * ...
 * worker.stop(); // finishes running tasks within the grace period, returns the rest at once
 * }</pre>
 * A worker is {@link AutoCloseable}: {@code try (Worker<Order> worker = ...) { worker.start(); ... }}
 * stops it the same way.
 *
 * @param <T> the payload type
 */
public final class Worker<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    /** The longest a stop waits on the real clock before it reads the ticker again (a virtual one may have moved). */
    private static final Duration TICKER_POLL = Duration.ofMillis(50);

    private final QueueName queue;
    private final WorkerOptions options;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Listeners listeners;
    private final BackendStatus backend;
    private final HeldTasks held;
    private final FetchSlots slots;
    private final Pause fetchPause;
    private final Pause settlePause;
    private final Liveness liveness;
    private final Settler settler;
    private final HandlerThreads handlers;
    private final TimeoutWatch timeouts;
    private final Cancellations cancellations;
    private final Fetcher fetcher;
    private final AtomicReference<WorkerState> state = new AtomicReference<>(WorkerState.NEW);
    private final AtomicBoolean stopStarted = new AtomicBoolean();
    /** Handler failures and a store closed under the worker are logged here (the class's logger but in tests). */
    private final Logger log;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    private Worker(Builder<T> builder) {
        TaskStore store = builder.store;
        queue = store.queue();
        options = builder.options;
        Clock clock = builder.clock;
        ticker = builder.ticker;
        ownsScheduler = builder.scheduler == null;
        scheduler = ownsScheduler ? Scheduler.system() : builder.scheduler;
        listeners = new Listeners(builder.listeners);
        log = builder.log == null ? LOG : builder.log;
        backend = new BackendStatus(queue, clock, listeners);
        fetchPause = new Pause(scheduler);
        settlePause = new Pause(scheduler);
        slots = new FetchSlots(options.prefetch(), options.fetchesInFlight(), WorkerOptions.ACKS_PER_CALL,
                options.fetchWait(), this::heldTasks, ticker);
        held = new HeldTasks(slots::wake, ticker);
        StoreClosedAlarm storeClosed = new StoreClosedAlarm(log, queue, this::consumer,
                () -> threads("stop-on-closed-store").newThread(this::stop).start());
        liveness = new Liveness(store, store, log, options, clock, scheduler, backend, storeClosed, listeners, held,
                this::cancelRequested);
        IntFunction<Duration> outageBackoff = new Backoff(options.outageBackoff(), builder.random);
        settler = new Settler(store, store, log, held, listeners, backend, settlePause, outageBackoff, storeClosed, slots,
                options.ackOnFetch(), liveness::current, options.groupAcks() ? WorkerOptions.ACKS_PER_CALL : 0);
        handlers = new HandlerThreads(options.concurrency(), threads("handler"));
        timeouts = new TimeoutWatch(queue, log, clock, scheduler, held, settler, listeners, handlers,
                liveness::processingTimeout);
        cancellations = new Cancellations(queue, log, held, settler, handlers, scheduler, listeners,
                options.cancelGrace());
        BooleanSupplier isStopping = () -> stopping; // every task's context asks this: one object, not one per task
        TaskLeases leases = new TaskLeases(store, clock, liveness::processingTimeout, cancellations, listeners);
        TaskRunner<T> runner = new TaskRunner<>(queue, log, builder.type, builder.handler, builder.codec, clock, ticker,
                settler, timeouts, handlers, cancellations, leases, liveness::heartbeatTtl, listeners,
                new HandlerFailureLog(log, queue, clock), new Backoff(options.retryPolicy(), builder.random), isStopping,
                DeliveryInterceptor.chain(builder.interceptors));
        Dispatcher dispatcher = new Dispatcher(held, slots, settler, timeouts, cancellations, handlers, runner::run,
                isStopping, storeClosed, () -> state.compareAndSet(WorkerState.RUNNING, WorkerState.FAILED));
        fetcher = new Fetcher(store, clock, ticker, slots, liveness::forFetching, backend, listeners, fetchPause,
                outageBackoff, dispatcher);
    }

    /**
     * A worker for the queue of {@code store}, decoding payloads as {@code type} and handing them to
     * {@code handler}. A worker consumes, reaps and looks tasks up: three roles every store provides.
     */
    public static <T> Builder<T> builder(TaskStore store, Class<T> type, TaskHandler<? super T> handler) {
        return new Builder<>(store, type, handler);
    }

    /**
     * A worker that hands each task to the route of its type in {@code router}, each route decoding the
     * payload with its own class and codec (docs/routing.md); the builder's codec is the router's business.
     */
    public static Builder<byte[]> routing(TaskStore store, TaskRouter router) {
        Builder<byte[]> builder = new Builder<>(store, byte[].class, router);
        builder.codec = RawPayloads.CODEC;
        builder.routed = true;
        return builder;
    }

    // ------------------------------------------------------------------ lifecycle

    /** Starts fetching, heartbeating and reaping in the background; never blocks on the backend. */
    public void start() {
        if (!state.compareAndSet(WorkerState.NEW, WorkerState.RUNNING)) {
            throw new IllegalStateException("a worker starts once; this one is " + state.get());
        }
        liveness.start();
        timeouts.start();
        fetcher.start(options.fetchesInFlight(), threads("fetcher"));
        log.info("queue {}: worker {} started (concurrency {}, prefetch {}, {} fetch(es) in flight, acks {})", queue,
                options.consumer(), options.concurrency(), options.prefetch(), options.fetchesInFlight(),
                options.ackOnFetch() ? "on fetches" : "on their own");
        listeners.started(this);
    }

    /**
     * Stops gracefully and returns when done: no more fetching; tasks that have not started go back
     * to the queue at once, their attempt not counted; running handlers get the grace period to
     * finish, after which they are interrupted and their tasks go back too. Idempotent; a second
     * caller waits for the first. The store's connections are the caller's to close afterwards.
     */
    public void stop() {
        if (!stopStarted.compareAndSet(false, true)) {
            awaitStopped();
            return;
        }
        if (state.get() == WorkerState.NEW) {
            finishStopping();
            return;
        }
        state.compareAndSet(WorkerState.RUNNING, WorkerState.STOPPING);
        long deadline = ticker.nanos() + options.gracePeriod().toNanos();
        stopping = true;
        log.info("queue {}: stopping; running tasks get up to {} ms to finish, the rest go back now", queue,
                options.gracePeriod().toMillis());
        listeners.stopping();
        Scheduler.Cancellable graceOver = scheduler.schedule(settlePause::cut, options.gracePeriod());
        settler.sendAcks(slots.stop(), false);
        fetchPause.cut();
        held.wakeWaiters();
        settler.releaseQueued();
        joinFetcher(deadline);
        settler.releaseQueued(); // whatever the last fetch brought in
        handlers.shutdown();
        if (!awaitHandlers(deadline)) {
            settlePause.cut();
            settler.releaseRunning();
            handlers.shutdownNow();
            handlers.awaitTermination(HandlerThreads.INTERRUPTED_HANDLER_WAIT);
        }
        settlePause.cut();
        graceOver.cancel();
        liveness.cancel();
        timeouts.cancel();
        liveness.expireAll();
        finishStopping();
    }

    /** {@link #stop()}: a graceful stop, running tasks getting up to the grace period to finish. */
    @Override
    public void close() {
        stop();
    }

    /** Waits until {@link #stop()} has finished. */
    public void awaitStopped() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to {@code timeout}; whether the worker has stopped. */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    public WorkerState state() {
        return state.get();
    }

    public WorkerHealth health() {
        return new WorkerHealth(state.get(), backend.reachable(), held.size());
    }

    public QueueName queue() {
        return queue;
    }

    /** The name the worker fetches under now (its configured name, or that name with a suffix after an outage). */
    public ConsumerId consumer() {
        Incarnation incarnation = liveness.current();
        return incarnation == null ? options.consumer() : incarnation.consumer;
    }

    public WorkerOptions options() {
        return options;
    }

    /** Acks waiting for a fetch to carry them or queued behind the ack call in flight. */
    int acksWaiting() {
        return slots.waiting() + settler.acksQueued();
    }

    /** Tasks held right now, running or waiting for a handler thread. */
    public int heldTasks() {
        return held.size();
    }

    /** A heartbeat says the cancellation of tasks held under {@code consumer} was asked. */
    private void cancelRequested(ConsumerId consumer, Set<TaskId> ids) {
        if (!ids.isEmpty()) {
            cancellations.requested(consumer, ids);
        }
    }

    private void finishStopping() {
        state.set(WorkerState.STOPPED);
        log.info("queue {}: worker {} stopped", queue, options.consumer());
        listeners.stopped();
        if (ownsScheduler) {
            scheduler.close();
        }
        stopped.countDown();
    }

    private void joinFetcher(long deadline) {
        try {
            // a fetch in progress ends within fetchWait; its tasks are returned when it does
            fetcher.join(remaining(deadline).toMillis() + options.fetchWait().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until the handlers end or the ticker passes {@code deadline}; whether they ended. Waits
     * in slices, reading the ticker after each, so a grace period on a virtual ticker ends when it is moved.
     */
    private boolean awaitHandlers(long deadline) {
        for (Duration left; !(left = remaining(deadline)).isZero(); ) {
            if (handlers.awaitTermination(left.compareTo(TICKER_POLL) < 0 ? left : TICKER_POLL)) {
                return true;
            }
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return handlers.awaitTermination(Duration.ZERO);
    }

    private Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - ticker.nanos()));
    }

    private ThreadFactory threads(String role) {
        AtomicInteger count = new AtomicInteger();
        return job -> new Thread(job, "ordo-" + queue + "-" + role + "-" + count.incrementAndGet());
    }

    /** Builds a worker; everything but the store, type and handler has a default. */
    public static final class Builder<T> {
        private final TaskStore store;
        private final Class<T> type;
        private final TaskHandler<? super T> handler;
        private WorkerOptions options;
        private PayloadCodec codec;
        private Clock clock = Clock.system();
        private Ticker ticker = Ticker.system();
        private RandomGenerator random;
        private Scheduler scheduler;
        private final List<WorkerListener> listeners = new ArrayList<>();
        private final List<DeliveryInterceptor> interceptors = new ArrayList<>();
        /** Where handler failures are logged; tests look at what is logged through it. */
        private Logger log;
        /** A {@link TaskRouter} decodes: the worker hands it the payload's bytes. */
        private boolean routed;

        private Builder(TaskStore store, Class<T> type, TaskHandler<? super T> handler) {
            this.store = Validate.notNull("store", store);
            this.type = Validate.notNull("type", type);
            this.handler = Validate.notNull("handler", handler);
        }

        Builder<T> log(Logger value) {
            log = value;
            return this;
        }

        /** Default: {@link WorkerOptions#create()}. */
        public Builder<T> options(WorkerOptions value) {
            options = Validate.notNull("options", value);
            return this;
        }

        /** Default: JSON through {@link JacksonPayloadCodec}. */
        public Builder<T> codec(PayloadCodec value) {
            if (routed) {
                throw new IllegalStateException("a routing worker decodes each task with its route's codec: "
                        + "give the codec to TaskRouter.Builder");
            }
            codec = Validate.notNull("codec", value);
            return this;
        }

        /** The worker's notion of now (lease renewals, outage lengths). Default: the wall clock. */
        public Builder<T> clock(Clock value) {
            clock = Validate.notNull("clock", value);
            return this;
        }

        /**
         * What grace periods, waits and durations are measured on (the shutdown's grace period, a
         * suspect's wait, how long a handler took). Default: {@link Ticker#system()}.
         */
        public Builder<T> ticker(Ticker value) {
            ticker = Validate.notNull("ticker", value);
            return this;
        }

        /** Draws the jitter of every backoff. Default: a randomly seeded generator. */
        public Builder<T> random(RandomGenerator value) {
            random = Validate.notNull("random", value);
            return this;
        }

        /** Runs timed jobs and pauses. Default: one of the worker's own on wall time, closed when it stops. */
        public Builder<T> scheduler(Scheduler value) {
            scheduler = Validate.notNull("scheduler", value);
            return this;
        }

        public Builder<T> listener(WorkerListener value) {
            listeners.add(Validate.notNull("listener", value));
            return this;
        }

        /**
         * Every handler run passes through {@code value} (tracing, say); several wrap one another, the
         * first added outermost.
         */
        public Builder<T> interceptor(DeliveryInterceptor value) {
            interceptors.add(Validate.notNull("interceptor", value));
            return this;
        }

        public Worker<T> build() {
            if (options == null) {
                options = WorkerOptions.create();
            }
            if (codec == null) {
                codec = new JacksonPayloadCodec();
            }
            if (random == null) {
                random = RandomGenerator.getDefault();
            }
            return new Worker<>(this);
        }
    }
}
