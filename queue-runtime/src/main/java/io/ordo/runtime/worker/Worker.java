package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.domain.Text;
import io.ordo.domain.Validate;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
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
    /** Where a worker is in its life. */
    public enum State {
        /** Built, not started. */
        NEW,
        /** Fetching and handling tasks. */
        RUNNING,
        /** Shutting down: no more fetching; running tasks finish, the rest go back. */
        STOPPING,
        /** Stopped: holds nothing, runs nothing. */
        STOPPED,
        /** The fetch loop died of an unexpected error; {@link #stop()} still returns what is held. */
        FAILED
    }

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    /** The shortest TTL a heartbeat can set: at shutdown the consumer stops counting as live at once. */
    private static final Duration EXPIRE_AT_ONCE = Duration.ofMillis(1);
    private static final Duration LAST_WORDS = Duration.ofSeconds(1);
    /** The longest a suspect waits for the worker's other tasks, and the worker for the suspect (poison-isolation.md). */
    private static final Duration SUSPECT_WAIT = Duration.ofSeconds(10);
    /** Held by the fetch loop whose suspect runs alone: one suspect at a time. */
    private final ReentrantLock aloneRun = new ReentrantLock();
    /** How often the worker looks for a processing timeout while the queue sets none. */
    private static final Duration TIMEOUT_WATCH_IDLE = Duration.ofSeconds(1);

    private final TaskStore store;
    private final QueueName queue;
    private final Class<T> type;
    private final TaskHandler<? super T> handler;
    private final WorkerOptions options;
    private final PayloadCodec codec;
    private final Clock clock;
    private final RandomGenerator random;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Listeners listeners;
    private final BackendStatus backend;
    private final HeldTasks held;
    private final FetchSlots slots;
    private final Pause fetchPause;
    private final Pause settlePause;
    /** Null when acks are not grouped: each task is then acked by its own call. */
    private final AckGroups ackGroups;
    private final List<Incarnation> incarnations = new CopyOnWriteArrayList<>();
    private final AtomicInteger incarnationCount = new AtomicInteger();
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private final AtomicBoolean stopStarted = new AtomicBoolean();
    /** Set once the store turned out closed under the worker: it stops, and says so once. */
    private final AtomicBoolean storeClosed = new AtomicBoolean();
    /** Handler failures and a store closed under the worker are logged here (the class's logger but in tests). */
    private final Logger log;
    private final HandlerFailureLog handlerFailures;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile Incarnation current;
    private volatile Duration heartbeatTtl = QueueSettings.DEFAULT_HEARTBEAT_TTL;
    private volatile Duration processingTimeout = QueueSettings.DEFAULT_PROCESSING_TIMEOUT;
    /** Handler threads added in place of threads stuck in handlers the processing timeout gave up on. */
    private final AtomicInteger replacementThreads = new AtomicInteger();
    private volatile boolean stopping;
    /** Every task's context asks this: one object, not one per task. */
    private final BooleanSupplier isStopping = () -> stopping;
    private ThreadPoolExecutor handlers;
    private Fetcher fetcher;
    private PeriodicJob heartbeats;
    private PeriodicJob reaper;
    private PeriodicJob timeoutWatch;

    private Worker(Builder<T> builder) {
        store = builder.store;
        queue = store.queue();
        type = builder.type;
        handler = builder.handler;
        options = builder.options;
        codec = builder.codec;
        clock = builder.clock;
        random = builder.random;
        ownsScheduler = builder.scheduler == null;
        scheduler = ownsScheduler ? Scheduler.system() : builder.scheduler;
        listeners = new Listeners(builder.listeners);
        log = builder.log == null ? LOG : builder.log;
        handlerFailures = new HandlerFailureLog(log, queue, clock);
        backend = new BackendStatus(queue, clock, listeners);
        fetchPause = new Pause(scheduler);
        settlePause = new Pause(scheduler);
        slots = new FetchSlots(options.prefetch(), options.fetchesInFlight(), WorkerOptions.ACKS_PER_CALL,
                options.fetchWait(), this::heldTasks);
        held = new HeldTasks(slots::wake);
        ackGroups = options.groupAcks() ? new AckGroups(WorkerOptions.ACKS_PER_CALL, group -> sendAcks(group, false)) : null;
    }

    /** A worker for the queue of {@code store}, decoding payloads as {@code type} and handing them to {@code handler}. */
    public static <T> Builder<T> builder(TaskStore store, Class<T> type, TaskHandler<? super T> handler) {
        return new Builder<>(store, type, handler);
    }

    // ------------------------------------------------------------------ lifecycle

    /** Starts fetching, heartbeating and reaping in the background; never blocks on the backend. */
    public void start() {
        if (!state.compareAndSet(State.NEW, State.RUNNING)) {
            throw new IllegalStateException("a worker starts once; this one is " + state.get());
        }
        current = newIncarnation();
        handlers = new ThreadPoolExecutor(options.concurrency(), options.concurrency(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads("handler"));
        heartbeats = new PeriodicJob("heartbeat of queue " + queue, scheduler, this::heartbeatInterval, this::heartbeat);
        reaper = new PeriodicJob("reaper of queue " + queue, scheduler, this::reaperInterval, this::reap);
        heartbeats.start(Duration.ZERO);
        // at once: a worker restarted after a crash returns what its dead predecessor held without waiting
        // a whole default interval (the queue's own TTL is known only after the first heartbeat)
        reaper.start(Duration.ZERO);
        timeoutWatch = new PeriodicJob("processing timeout of queue " + queue, scheduler, this::timeoutWatchInterval,
                this::giveUpOverdue);
        timeoutWatch.start(timeoutWatchInterval());
        fetcher = new Fetcher(store, clock, slots, this::incarnationForFetching, backend, listeners, fetchPause,
                failures -> draw(options.outageBackoff(), failures), new FetchedTasks());
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
        if (state.get() == State.NEW) {
            finishStopping();
            return;
        }
        state.compareAndSet(State.RUNNING, State.STOPPING);
        long deadline = System.nanoTime() + options.gracePeriod().toNanos();
        stopping = true;
        log.info("queue {}: stopping; running tasks get up to {} ms to finish, the rest go back now", queue,
                options.gracePeriod().toMillis());
        listeners.stopping();
        Scheduler.Cancellable graceOver = scheduler.schedule(settlePause::cut, options.gracePeriod());
        sendAcks(slots.stop(), false);
        fetchPause.cut();
        held.wakeWaiters();
        releaseQueued();
        joinFetcher(deadline);
        releaseQueued(); // whatever the last fetch brought in
        handlers.shutdown();
        if (!awaitHandlers(remaining(deadline))) {
            settlePause.cut();
            releaseRunning();
            handlers.shutdownNow();
            awaitHandlers(LAST_WORDS);
        }
        settlePause.cut();
        graceOver.cancel();
        heartbeats.cancel();
        reaper.cancel();
        timeoutWatch.cancel();
        expireIncarnations();
        finishStopping();
    }

    /** {@link #stop()}: a graceful stop, running tasks getting up to the grace period to finish. */
    @Override
    public void close() {
        stop();
    }

    /**
     * The store's factory was closed under the running worker. Not an outage to wait out: nothing the
     * worker holds can be settled any more (the store returns it once its consumer's heartbeat
     * expires), so the worker stops, on a thread of its own as this may be one the stop waits for.
     */
    private void storeClosed(StoreClosedException e) {
        if (!storeClosed.compareAndSet(false, true)) {
            return;
        }
        log.error("queue {}: the store was closed under running worker {} (its factory was closed before the worker"
                + " was stopped); stopping the worker, what it holds returns to the queue when its heartbeat expires ({})",
                queue, consumer(), e.getMessage());
        threads("stop-on-closed-store").newThread(this::stop).start();
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

    public State state() {
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
        Incarnation incarnation = current;
        return incarnation == null ? options.consumer() : incarnation.consumer;
    }

    public WorkerOptions options() {
        return options;
    }

    /** Acks waiting for a fetch to carry them or queued behind the ack call in flight. */
    int acksWaiting() {
        return slots.waiting() + (ackGroups == null ? 0 : ackGroups.waiting());
    }

    /** Tasks held right now, running or waiting for a handler thread. */
    public int heldTasks() {
        return held.size();
    }

    private void finishStopping() {
        state.set(State.STOPPED);
        log.info("queue {}: worker {} stopped", queue, options.consumer());
        listeners.stopped();
        if (ownsScheduler) {
            scheduler.close();
        }
        stopped.countDown();
    }

    // ------------------------------------------------------------------ fetching

    /** What the fetch loops hand over: the tasks they bring and the acks they carry. */
    private final class FetchedTasks implements Fetcher.Deliveries {
        @Override
        public void acked(List<AckGroups.PendingAck> acks, Map<TaskId, AckOutcome> answers) {
            settleAcks(acks, answers, false);
        }

        @Override
        public void sendAcks(List<AckGroups.PendingAck> acks, boolean sentBefore) {
            Worker.this.sendAcks(acks, sentBefore);
        }

        @Override
        public List<HeldTask> hold(Incarnation incarnation, List<Lease> leases, long receivedAt) {
            List<HeldTask> tasks = new ArrayList<>(leases.size());
            for (Lease lease : leases) {
                HeldTask task = new HeldTask(lease, incarnation, receivedAt);
                HeldTask previous = held.add(task);
                if (previous != null) {
                    giveUpRedelivered(previous);
                }
                tasks.add(task);
            }
            return tasks;
        }

        @Override
        public void run(List<HeldTask> tasks) throws InterruptedException {
            if (!tasks.isEmpty() && tasks.get(0).incarnation.retired()) {
                // fetched under a name retired while the fetch was out (a hung task was given up): back at
                // once, the attempt not counted, rather than held under a name that is left to expire
                release(claimQueued(tasks));
                return;
            }
            HeldTask suspect = HeldTask.firstSuspect(tasks);
            if (suspect == null) {
                dispatch(tasks);
            } else {
                runAlone(tasks, suspect);
            }
        }

        @Override
        public void storeClosed(StoreClosedException error) {
            Worker.this.storeClosed(error);
        }

        @Override
        public void died(Error error) {
            state.compareAndSet(State.RUNNING, State.FAILED);
        }
    }

    /**
     * Runs a suspect with nothing else held (docs/decisions/poison-isolation.md): the rest of the
     * fetch goes straight back, its attempt not counted, the suspect starts once every other task
     * has settled, and nothing more is fetched until it has. If it crashes the process again, only
     * it is charged an attempt, not the tasks that happened to be fetched with it. Each wait ends
     * after {@link #SUSPECT_WAIT}, so a hung handler (before or in the suspect) never stops the worker.
     */
    private void runAlone(List<HeldTask> tasks, HeldTask suspect) throws InterruptedException {
        if (!aloneRun.tryLock()) {
            // another fetch loop's suspect runs alone: this whole fetch goes back, suspect included, so
            // nothing of it is held (and charged) should that one crash the process; it comes again later
            release(claimQueued(tasks));
            return;
        }
        try {
            sendAcks(slots.beginAlone(SUSPECT_WAIT), false);
            try {
                release(claimQueued(tasks.stream().filter(task -> task != suspect).toList()));
                held.awaitAtMost(1, SUSPECT_WAIT, isStopping);
                dispatch(List.of(suspect));
                held.awaitAtMost(0, SUSPECT_WAIT, isStopping);
            } finally {
                slots.endAlone();
            }
        } finally {
            aloneRun.unlock();
        }
    }

    /** Ordered batches stay whole (one unit, in order); every regular task is a unit of its own. */
    private void dispatch(List<HeldTask> tasks) {
        if (stopping) {
            release(claimQueued(tasks));
            return;
        }
        List<List<HeldTask>> units = new ArrayList<>(tasks.size());
        Map<Partition, List<HeldTask>> batches = null;
        for (HeldTask task : tasks) {
            Partition partition = task.lease.partition();
            if (partition.isOrdered()) {
                if (batches == null) {
                    batches = new LinkedHashMap<>();
                }
                batches.computeIfAbsent(partition, ordered -> {
                    List<HeldTask> batch = new ArrayList<>();
                    units.add(batch);
                    return batch;
                }).add(task);
            } else {
                units.add(List.of(task));
            }
        }
        for (List<HeldTask> unit : units) {
            try {
                handlers.execute(() -> run(unit));
            } catch (RejectedExecutionException e) {
                return; // shutting down: stop() returns every task that has not started
            }
        }
    }

    // ------------------------------------------------------------------ handling

    private void run(List<HeldTask> unit) {
        for (int i = 0; i < unit.size(); i++) {
            HeldTask task = unit.get(i);
            long now = clock.millis();
            if (!task.incarnation.leaseValidAt(now, heartbeatTtl.toMillis())) {
                abandon(unit.subList(i, unit.size()));
                return;
            }
            if (overdue(task, now)) {
                giveUp(unit.subList(i, unit.size()));
                return;
            }
            if (!task.start()) {
                return; // returned at shutdown or given up, and the rest of its batch with it
            }
            if (!handle(task, unit.subList(i + 1, unit.size()))) {
                return;
            }
        }
    }

    /** Runs the handler and settles the task; whether the rest of its ordered batch goes on. */
    private boolean handle(HeldTask task, List<HeldTask> rest) {
        Lease lease = task.lease;
        listeners.taskStarted(lease);
        long startNanos = System.nanoTime();
        Outcome outcome;
        Throwable error = null;
        try {
            T payload = decode(lease);
            outcome = handler.handle(payload, new TaskContext(lease, isStopping));
            if (outcome == null) {
                throw new IllegalStateException("the handler returned no outcome; return Outcome.success() when done");
            }
        } catch (UndecodablePayload e) {
            error = e.getCause();
            outcome = Outcome.fail("cannot decode the payload: "
                    + Text.withUnpairedSurrogatesReplaced(BackendStatus.oneLine(e.getCause())));
            handlerFailures.failed(lease, error, "its payload cannot be decoded as " + type.getName()
                    + ", so it becomes a dead letter");
        } catch (Throwable e) {
            // Any failure of the handler, Errors included, is a failed attempt: the task comes back later.
            error = e;
            Duration retryIn = draw(options.retryPolicy(), lease.task().attempts());
            outcome = Outcome.retryAfter(retryIn, describe(e));
            if (!(stopping && e instanceof InterruptedException)) { // interrupted at the grace period's end: no failure
                handlerFailures.failed(lease, e, "it is retried in " + retryIn.toMillis()
                        + " ms, or becomes a dead letter if it has no attempts left");
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        task.handlerReturned();
        if (!stopping) {
            Thread.interrupted(); // a handler's stray interrupt must not reach the next task on this thread
        }
        listeners.handlerFinished(lease, outcome, error, took);
        if (!task.finishRunning()) {
            if (task.timedOut()) {
                handlerReturnedAfterTimeout(task, took);
                return false;
            }
            log.debug("queue {}: task {} finished after it was returned at shutdown; its outcome is dropped", queue, lease.id());
            return false;
        }
        return settle(task, outcome, rest);
    }

    private T decode(Lease lease) {
        try {
            return codec.decode(lease.task().payload(), type);
        } catch (RuntimeException e) {
            throw new UndecodablePayload(e);
        }
    }

    private boolean settle(HeldTask task, Outcome outcome, List<HeldTask> rest) {
        Lease lease = task.lease;
        if (outcome instanceof Outcome.Success) {
            AckGroups.PendingAck ack = new AckGroups.PendingAck(task, new CompletableFuture<>());
            // on the worker's next fetch if one comes soon; else on its own (grouped) as the handler returns
            if (!(options.ackOnFetch() && task.incarnation == current && slots.offer(ack))) {
                if (ackGroups != null) {
                    ackGroups.send(ack);
                } else {
                    sendAcks(List.of(ack), false);
                }
            }
            // nothing of a lone task's unit waits for the answer: the thread moves on; the rest of an
            // ordered batch runs only once this ack is known to have gone through
            return rest.isEmpty() || ack.settled().join() || returnRest(rest);
        }
        if (outcome instanceof Outcome.Fail fail) {
            Map<TaskId, FailOutcome> failed = call(() -> store.fail(lease.consumer(), List.of(lease.id()), fail.reason()));
            if (failed == null) {
                return unsettled(task);
            }
            boolean done = failed.get(lease.id()) == FailOutcome.DEAD_LETTERED;
            settled(task, done ? Settlement.DEAD_LETTERED : Settlement.LEASE_LOST);
            return done || returnRest(rest); // after a dead letter an ordered batch goes on (semantics: fail)
        }
        if (outcome instanceof Outcome.RetryAfter retry) {
            return reject(task, Rejection.retryAfter(retry.delay(), retry.reason()), rest);
        }
        return rateLimit(task, (Outcome.RateLimited) outcome, rest);
    }

    /**
     * Acks tasks on their own, one store call per consumer name, and settles each with its own
     * outcome. {@code sentBefore}: a call that carried them failed, so a refusal may mean it went through.
     */
    private void sendAcks(List<AckGroups.PendingAck> group, boolean sentBefore) {
        if (group.isEmpty()) {
            return;
        }
        byConsumer(group, AckGroups.PendingAck::task).forEach((consumer, acks) -> {
            List<TaskId> ids = acks.stream().map(ack -> ack.task().lease.id()).toList();
            AtomicInteger tries = new AtomicInteger(sentBefore ? 1 : 0);
            Map<TaskId, AckOutcome> acked = call(() -> {
                tries.incrementAndGet();
                return store.ack(consumer, ids);
            });
            settleAcks(acks, acked, tries.get() > 1);
        });
    }

    /**
     * Settles each task with its ack's answer (none: the backend could not be told) and completes
     * its future with whether it was acked.
     */
    private void settleAcks(List<AckGroups.PendingAck> acks, Map<TaskId, AckOutcome> answers, boolean retried) {
        boolean roomOpened = false;
        for (AckGroups.PendingAck ack : acks) {
            HeldTask task = ack.task();
            boolean done = false;
            if (answers == null) {
                unsettled(task);
            } else {
                done = answers.get(task.lease.id()) == AckOutcome.ACKED
                        || (retried && ackedBeforeItsAnswerWasLost(task.lease));
                // the fetch loops are told once for the whole answer: each telling takes their monitor
                roomOpened |= held.removeQuietly(task);
                listeners.taskSettled(task.lease, done ? Settlement.PROCESSED : Settlement.LEASE_LOST);
            }
            ack.settled().complete(done);
        }
        if (roomOpened) {
            held.roomOpened();
        }
    }

    /**
     * An ack sent again after a failure is refused when the first one went through and only its
     * answer was lost; then the task is gone. (If it was reclaimed instead, it is still there.)
     */
    private boolean ackedBeforeItsAnswerWasLost(Lease lease) {
        Optional<TaskSnapshot> now = call(() -> store.get(lease.id()));
        return now != null && now.isEmpty();
    }

    /** Back with a delay; in an ordered batch the store returns the rest with it (SPEC rule 5). */
    private boolean reject(HeldTask task, Rejection rejection, List<HeldTask> rest) {
        Lease lease = task.lease;
        List<HeldTask> batch = claimQueued(rest);
        Map<TaskId, RejectOutcome> rejected = call(() -> store.reject(lease.consumer(), List.of(lease.id()), rejection));
        if (rejected == null) {
            unsettled(task);
            batch.forEach(this::unsettled);
            return false;
        }
        RejectOutcome outcome = rejected.get(lease.id());
        settled(task, outcome == RejectOutcome.RETURNED ? Settlement.RETRIED
                : outcome == RejectOutcome.DEAD_LETTERED ? Settlement.DEAD_LETTERED : Settlement.LEASE_LOST);
        List<HeldTask> stillHeld = new ArrayList<>();
        for (HeldTask later : batch) {
            if (rejected.get(later.lease.id()) == RejectOutcome.RETURNED_WITH_BATCH) {
                settled(later, Settlement.RETURNED_WITH_BATCH);
            } else {
                stillHeld.add(later);
            }
        }
        release(stillHeld);
        return false;
    }

    /**
     * Blocks the partition, then returns the task (and the rest of its batch) unprocessed: blocking
     * first means no other consumer can take it in between, and the attempt does not count
     * (docs/decisions/worker-rate-limits.md).
     */
    private boolean rateLimit(HeldTask task, Outcome.RateLimited limit, List<HeldTask> rest) {
        Lease lease = task.lease;
        List<HeldTask> batch = claimQueued(rest);
        List<TaskId> ids = new ArrayList<>();
        ids.add(lease.id());
        batch.forEach(later -> ids.add(later.lease.id()));
        Map<TaskId, ReleaseOutcome> released = call(() -> {
            store.blockPartition(lease.partition(), limit.blockFor());
            return store.release(lease.consumer(), ids);
        });
        if (released == null) {
            unsettled(task);
            batch.forEach(this::unsettled);
            return false;
        }
        settled(task, released.get(lease.id()) == ReleaseOutcome.RELEASED ? Settlement.RATE_LIMITED : Settlement.LEASE_LOST);
        for (HeldTask later : batch) {
            settled(later, released.get(later.lease.id()) == ReleaseOutcome.RELEASED
                    ? Settlement.RETURNED_WITH_BATCH : Settlement.LEASE_LOST);
        }
        return false;
    }

    /** The lease of an ordered batch was lost: whatever of the batch may still be held goes back. */
    private boolean returnRest(List<HeldTask> rest) {
        release(claimQueued(rest));
        return false;
    }

    private void abandon(List<HeldTask> rest) {
        List<HeldTask> abandoned = claimQueued(rest);
        if (abandoned.isEmpty()) {
            return;
        }
        Incarnation incarnation = abandoned.get(0).incarnation;
        incarnation.retire();
        log.warn("queue {}: {} not renewed for a heartbeat TTL; not starting {} held task(s), the reaper returns them",
                queue, incarnation.consumer, abandoned.size());
        abandoned.forEach(task -> settled(task, Settlement.ABANDONED));
    }

    // ------------------------------------------------------------------ the processing timeout

    /** Held longer than the queue's processing timeout: the store takes it back from this worker at its next reclaim. */
    private boolean overdue(HeldTask task, long now) {
        Duration timeout = processingTimeout;
        return !timeout.isZero() && now - task.leasedAt >= timeout.toMillis();
    }

    /**
     * Gives up on every task held past the processing timeout (docs/decisions/hung-handlers.md): a
     * running one's handler is interrupted and its outcome will be dropped, a queued one never
     * starts; both leave the prefetch, and a thread stuck in a handler is replaced (up to the
     * concurrency) so the worker keeps its capacity. The reaper returns them to the queue.
     */
    private void giveUpOverdue() {
        if (processingTimeout.isZero()) {
            return;
        }
        long now = clock.millis();
        for (HeldTask task : held.snapshot()) {
            if (!overdue(task, now)) {
                continue;
            }
            if (task.claimTimedOut(this::addReplacementThread)) {
                log.warn("queue {}: task {} still running after the processing timeout of {} ms; giving up on it"
                                + " (the reaper returns it), interrupting its handler; {} handler thread(s) replaced",
                        queue, task.lease.id(), processingTimeout.toMillis(), replacementThreads.get());
                settled(task, Settlement.TIMED_OUT);
                task.interruptRunner();
            } else if (task.claimQueued()) {
                settled(task, Settlement.TIMED_OUT);
            }
        }
    }

    /**
     * The store handed out again a task this worker still held: the reaper took it back (its processing
     * timeout passed on the server's clock before this worker's), so the earlier delivery is given up as
     * the timeout would have: its handler interrupted and its thread replaced, its outcome dropped.
     */
    private void giveUpRedelivered(HeldTask previous) {
        if (previous.claimTimedOut(this::addReplacementThread)) {
            log.warn("queue {}: task {} delivered again while its previous run is still going (the reaper returned"
                            + " it); giving up on it, interrupting its handler; {} handler thread(s) replaced",
                    queue, previous.lease.id(), replacementThreads.get());
            listeners.taskSettled(previous.lease, Settlement.TIMED_OUT);
            previous.interruptRunner();
        } else if (previous.claimQueued()) {
            listeners.taskSettled(previous.lease, Settlement.TIMED_OUT);
        }
    }

    private void giveUp(List<HeldTask> tasks) {
        claimQueued(tasks).forEach(task -> settled(task, Settlement.TIMED_OUT));
    }

    /** A handler the timeout gave up on returned after all: its outcome is dropped, its replacement thread retired. */
    private void handlerReturnedAfterTimeout(HeldTask task, Duration took) {
        log.info("queue {}: the handler of task {} returned after {} ms, past the processing timeout; its outcome is dropped",
                queue, task.lease.id(), took.toMillis());
        if (task.wasThreadReplaced()) {
            synchronized (replacementThreads) {
                resizeHandlers(replacementThreads.decrementAndGet()); // the surplus thread ends when idle
            }
        }
    }

    /** One more handler thread while one is stuck; at most the concurrency more in all. */
    private boolean addReplacementThread() {
        synchronized (replacementThreads) {
            if (replacementThreads.get() >= options.concurrency()) {
                return false;
            }
            resizeHandlers(replacementThreads.incrementAndGet());
            return true;
        }
    }

    /** The concurrency plus {@code replacements} threads; the pool never has its core above its maximum. */
    private void resizeHandlers(int replacements) {
        int size = options.concurrency() + replacements;
        if (size > handlers.getMaximumPoolSize()) {
            handlers.setMaximumPoolSize(size);
            handlers.setCorePoolSize(size);
        } else {
            handlers.setCorePoolSize(size);
            handlers.setMaximumPoolSize(size);
        }
    }

    private Duration timeoutWatchInterval() {
        Duration timeout = processingTimeout;
        return timeout.isZero() ? TIMEOUT_WATCH_IDLE : Duration.ofMillis(Math.max(10, Math.min(1000, timeout.toMillis() / 10)));
    }

    // ------------------------------------------------------------------ returning tasks

    private void releaseQueued() {
        release(held.snapshot().stream().filter(HeldTask::claimQueued).toList());
    }

    private void releaseRunning() {
        List<HeldTask> overdue = held.snapshot().stream().filter(HeldTask::claimRunning).toList();
        if (!overdue.isEmpty()) {
            log.warn("queue {}: {} task(s) still running after the grace period; interrupting them and returning their tasks",
                    queue, overdue.size());
        }
        release(overdue);
    }

    /** Returns claimed tasks unprocessed, their attempt not counted; one call per consumer name. */
    private void release(List<HeldTask> tasks) {
        byConsumer(tasks, Function.identity()).forEach((consumer, group) -> {
            List<TaskId> ids = group.stream().map(task -> task.lease.id()).toList();
            Map<TaskId, ReleaseOutcome> released = call(() -> store.release(consumer, ids));
            for (HeldTask task : group) {
                if (released == null) {
                    unsettled(task);
                } else {
                    settled(task, released.get(task.lease.id()) == ReleaseOutcome.RELEASED
                            ? Settlement.RELEASED : Settlement.LEASE_LOST);
                }
            }
        });
    }

    /** Groups by the consumer name each task was leased under, in order: one store call per name. */
    private static <E> Map<ConsumerId, List<E>> byConsumer(List<E> items, Function<E, HeldTask> task) {
        Map<ConsumerId, List<E>> byConsumer = new LinkedHashMap<>();
        items.forEach(item -> byConsumer.computeIfAbsent(task.apply(item).lease.consumer(), consumer -> new ArrayList<>()).add(item));
        return byConsumer;
    }

    private List<HeldTask> claimQueued(List<HeldTask> tasks) {
        return tasks.stream().filter(HeldTask::claimQueued).toList();
    }

    private void settled(HeldTask task, Settlement settlement) {
        held.remove(task);
        listeners.taskSettled(task.lease, settlement);
    }

    /**
     * The backend could not be told what became of the task. It stays in flight under the task's
     * consumer name, which is retired so it expires and the reaper returns the task.
     */
    private boolean unsettled(HeldTask task) {
        task.incarnation.retire();
        held.remove(task);
        if (!storeClosed.get()) { // else said once, by storeClosed
            log.warn("queue {}: could not settle task {}; it stays in flight until the reaper returns it", queue,
                    task.lease.id());
        }
        return false;
    }

    /**
     * A store call that waits out an unreachable backend with backoff (until shutdown's grace
     * period ends); null when it gave up.
     */
    private <R> R call(Supplier<R> operation) {
        for (int failures = 1; ; failures++) {
            try {
                R result = operation.get();
                backend.succeeded();
                return result;
            } catch (QueueUnavailableException e) {
                backend.failed(e);
                if (!settlePause.await(draw(options.outageBackoff(), failures))) {
                    return null;
                }
            } catch (StoreClosedException e) {
                storeClosed(e);
                return null;
            } catch (RuntimeException e) {
                log.error("queue {}: the backend refused a call: {}", queue, BackendStatus.oneLine(e));
                return null;
            }
        }
    }

    // ------------------------------------------------------------------ heartbeats and the reaper

    private void heartbeat() {
        try {
            QueueSettings settings = store.settings();
            heartbeatTtl = settings.heartbeatTtl();
            processingTimeout = settings.processingTimeout();
            for (Incarnation incarnation : incarnations) {
                if (!incarnation.needsHeartbeat()) {
                    incarnations.remove(incarnation); // unrenewed, it expires and the reaper returns what it held
                    continue;
                }
                long startedAt = clock.millis();
                store.heartbeat(incarnation.consumer, heartbeatTtl);
                incarnation.renewed(startedAt);
            }
            backend.succeeded();
        } catch (StoreClosedException e) {
            storeClosed(e);
        } catch (RuntimeException e) {
            backend.failed(e);
        }
    }

    private void reap() {
        try {
            ReclaimReport report = store.reclaim();
            backend.succeeded();
            if (report.returned() > 0 || report.deadLettered() > 0) {
                log.info("queue {}: reclaimed {} task(s) ({} now dead letters) from dead consumers {} and {} timed out",
                        queue, report.returned() + report.deadLettered(), report.deadLettered(),
                        report.deadConsumers(), report.timedOut());
            }
        } catch (StoreClosedException e) {
            storeClosed(e);
        } catch (RuntimeException e) {
            backend.failed(e);
        }
    }

    private Duration heartbeatInterval() {
        return options.heartbeatInterval().orElseGet(this::thirdOfTtl);
    }

    private Duration reaperInterval() {
        return options.reaperInterval().orElseGet(this::thirdOfTtl);
    }

    private Duration thirdOfTtl() {
        return Duration.ofMillis(Math.max(1, heartbeatTtl.toMillis() / 3));
    }

    private Incarnation newIncarnation() {
        int number = incarnationCount.incrementAndGet();
        String base = options.consumer().value();
        ConsumerId name = number == 1 ? options.consumer() : ConsumerId.of(suffixed(base, "~" + number));
        Incarnation incarnation = new Incarnation(name, clock.millis());
        incarnations.add(incarnation);
        return incarnation;
    }

    private Incarnation incarnationForFetching() {
        if (current.retired()) {
            current = newIncarnation();
            log.info("queue {}: fetching as {} from now on; {} expires and the reaper returns what it may hold",
                    queue, current.consumer, options.consumer());
        }
        return current;
    }

    private static String suffixed(String base, String suffix) {
        return Text.prefix(base, ConsumerId.MAX_LENGTH - suffix.length()) + suffix;
    }

    /** One heartbeat with the shortest TTL per name: the consumer stops counting as live at once. */
    private void expireIncarnations() {
        for (Incarnation incarnation : incarnations) {
            try {
                store.heartbeat(incarnation.consumer, EXPIRE_AT_ONCE);
            } catch (RuntimeException e) {
                return; // unreachable: the names expire on their own after the TTL
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private Duration draw(RetryPolicy policy, int failedAttempts) {
        synchronized (random) {
            return policy.delayAfter(Math.max(1, failedAttempts), random);
        }
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

    private void joinFetcher(long deadline) {
        try {
            // a fetch in progress ends within fetchWait; its tasks are returned when it does
            fetcher.join(remaining(deadline).toMillis() + options.fetchWait().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean awaitHandlers(Duration timeout) {
        try {
            return handlers.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private ThreadFactory threads(String role) {
        AtomicInteger count = new AtomicInteger();
        return job -> new Thread(job, "ordo-" + queue + "-" + role + "-" + count.incrementAndGet());
    }

    /** The payload could not be decoded: a poison task that no retry will fix. */
    private static final class UndecodablePayload extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UndecodablePayload(RuntimeException cause) {
            super(cause);
        }
    }

    /** Builds a worker; everything but the store, type and handler has a default. */
    public static final class Builder<T> {
        private final TaskStore store;
        private final Class<T> type;
        private final TaskHandler<? super T> handler;
        private WorkerOptions options;
        private PayloadCodec codec;
        private Clock clock = Clock.system();
        private RandomGenerator random;
        private Scheduler scheduler;
        private final List<WorkerListener> listeners = new ArrayList<>();
        /** Where handler failures are logged; tests look at what is logged through it. */
        private Logger log;

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
            codec = Validate.notNull("codec", value);
            return this;
        }

        /** The worker's notion of now (lease renewals, outage lengths). Default: the wall clock. */
        public Builder<T> clock(Clock value) {
            clock = Validate.notNull("clock", value);
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
