package io.ordo.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The consume side of the workloads: one worker holding at most {@code prefetch} tasks, a pool of
 * handler threads and two fetch threads. Regular tasks run in parallel; the consecutive tasks of an
 * ordered partition run in order on one thread (the partition stays locked to this consumer until all
 * of them are acked, so nothing of it can arrive in between). Each task is acked once its handler
 * returns: its ack rides on the next call, which acks the finished tasks and then takes up to N more
 * ({@link BenchQueue.Consumer#ackAndFetch}). The room a call asks for counts the acks it carries,
 * which are done before anything is taken, but not those of the other call in flight.
 *
 * <p>When a call goes out ({@link #dueMax}): as soon as there is room for a batch (half the prefetch,
 * so a call takes many tasks and its fixed cost is shared), or when acks are waiting and no handler is
 * still running (nothing more would join them: they go alone). A second call goes out while one is in
 * flight, so the handlers get work while the first is answered. Only a call made while no other is in
 * flight waits for tasks ({@code fetchWait}): an idle worker sits in one blocking fetch and does not poll.
 *
 * <p>{@code --ack-each} ({@link #ackEachTask}) is the diagnostic of one ack call per task: each handler
 * acks its own task with an acks-only call, and the fetches carry none.
 */
final class DrainWorker implements BenchWorker {
    /** The worker runtime's default fetch wait: what an idle worker costs depends on it. */
    static final Duration IDLE_FETCH_WAIT = Duration.ofSeconds(1);
    /** Where a wait only matters at the end of a run: shorter, so a worker closes quickly. */
    static final Duration BUSY_FETCH_WAIT = Duration.ofMillis(200);
    /** Set by {@code --ack-each}: one ack call per task, sent by the task's handler. */
    static volatile boolean ackEachTask;
    /** Calls in flight at most: one answered while the other is on its way. */
    private static final int FETCHERS = 2;
    /** How often an idle fetch thread looks whether the keep-alive is due. */
    private static final long IDLE_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final BenchQueue.Consumer consumer;
    private final Ledger ledger;
    private final int prefetch;
    private final int batch;
    private final long limit;
    private final Duration fetchWait;
    private final boolean acksRideOnFetches = !ackEachTask;
    private final ExecutorService handlers;
    private final List<Thread> fetchers = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition callDue = lock.newCondition();
    // guarded by lock
    private final List<BenchQueue.Delivery> finished = new ArrayList<>();
    /**
     * Tasks this worker holds: asked for or being acked by calls in flight, running or waiting for a
     * thread, or finished. A call's acks free their room once it is answered: the other call in flight
     * must not count on it before the server has done them.
     */
    private int held;
    /** Tasks handed to the handlers whose handler has not returned (or, with ack-each, whose ack has not). */
    private int unfinished;
    /** Tasks asked for in all, less what the calls did not bring: fetching ends at {@code limit}. */
    private long asked;
    private int callsInFlight;
    private long nextKeepAlive = System.nanoTime();
    private volatile boolean running = true;

    /** One call: acks these, then takes up to {@code max} tasks (0: acks only), waiting up to {@code fetchWait}. */
    private record Call(List<BenchQueue.Delivery> acks, int max, Duration fetchWait) {
    }

    /**
     * @param limit     how many tasks to fetch in all before fetching ends (Long.MAX_VALUE: no end)
     * @param fetchWait how long a fetch waits when there is nothing to take
     */
    DrainWorker(BenchQueue.Consumer consumer, Ledger ledger, int handlerThreads, int prefetch, long limit,
                Duration fetchWait) {
        this.consumer = consumer;
        this.ledger = ledger;
        this.prefetch = prefetch;
        this.batch = Math.max(1, prefetch / 2);
        this.limit = limit;
        this.fetchWait = fetchWait;
        this.handlers = Executors.newFixedThreadPool(handlerThreads, daemon("bench-handler"));
        for (int i = 0; i < FETCHERS; i++) {
            fetchers.add(daemon("bench-fetcher").newThread(this::fetchLoop));
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    DrainWorker start() {
        fetchers.forEach(Thread::start);
        return this;
    }

    private void fetchLoop() {
        try {
            while (running) {
                if (keepAliveDue()) {
                    consumer.keepAlive();
                }
                Call call = awaitCall();
                if (call != null) {
                    BenchQueue.AckedAndFetched answer = consumer.ackAndFetch(call.acks(), call.max(), call.fetchWait());
                    if (!call.acks().isEmpty()) {
                        ledger.acked(call.acks().size(), answer.acked());
                    }
                    answered(call, answer.deliveries().size());
                    dispatch(answer.deliveries());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            if (running) {
                failure.compareAndSet(null, e);
            }
        }
    }

    private boolean keepAliveDue() {
        lock.lock();
        try {
            long now = System.nanoTime();
            if (now - nextKeepAlive < 0) {
                return false;
            }
            nextKeepAlive = now + OrdoQueue.KEEP_ALIVE_INTERVAL.toNanos();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The next call, counted as in flight; null when none came due within a short while. */
    private Call awaitCall() throws InterruptedException {
        lock.lock();
        try {
            int max = dueMax();
            if (max < 0) {
                callDue.awaitNanos(IDLE_LOOK_NANOS);
                max = dueMax();
                if (max < 0) {
                    return null;
                }
            }
            Call call = new Call(List.copyOf(finished), max,
                    max > 0 && callsInFlight == 0 ? fetchWait : Duration.ZERO);
            finished.clear();
            held += max;
            asked += max;
            callsInFlight++;
            return call;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many tasks the call due now asks for (0: it carries acks only), or -1 when none is due. Every
     * call carries all the acks waiting. Changes nothing; under the lock.
     */
    private int dueMax() {
        if (!running || callsInFlight == FETCHERS) {
            return -1;
        }
        long left = limit - asked;
        int room = (int) Math.min(prefetch - held + finished.size(), left);
        if (room > 0 && room >= Math.min(batch, left)) {
            return room;
        }
        return !finished.isEmpty() && unfinished == 0 ? 0 : -1;
    }

    /** Wakes a waiting fetch thread if a call is due; under the lock. */
    private void wakeIfDue() {
        if (dueMax() >= 0) {
            callDue.signal();
        }
    }

    private void answered(Call call, int taken) {
        lock.lock();
        try {
            held -= call.acks().size() + call.max() - taken;
            asked -= call.max() - taken;
            unfinished += taken;
            callsInFlight--;
            wakeIfDue();
        } finally {
            lock.unlock();
        }
    }

    /** Regular tasks one per thread; the consecutive tasks of one ordered partition as one job, in order. */
    private void dispatch(List<BenchQueue.Delivery> deliveries) {
        Map<String, List<BenchQueue.Delivery>> ordered = new LinkedHashMap<>();
        for (BenchQueue.Delivery delivery : deliveries) {
            if (delivery.orderedPartition() == null) {
                handlers.execute(() -> process(List.of(delivery)));
            } else {
                ordered.computeIfAbsent(delivery.orderedPartition(), code -> new ArrayList<>()).add(delivery);
            }
        }
        ordered.values().forEach(run -> handlers.execute(() -> process(run)));
    }

    private void process(List<BenchQueue.Delivery> run) {
        try {
            for (BenchQueue.Delivery delivery : run) {
                ledger.handle(delivery.payload()); // the no-op handler, plus the harness's bookkeeping
                if (acksRideOnFetches) {
                    finish(delivery);
                } else {
                    ledger.acked(1, consumer.ackAndFetch(List.of(delivery), 0, Duration.ZERO).acked());
                    finish(null);
                }
            }
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        }
    }

    /** A handler returned; {@code ack} is its task, to be acked by the next call, or null when its handler acked it. */
    private void finish(BenchQueue.Delivery ack) {
        lock.lock();
        try {
            unfinished--;
            if (ack != null) {
                finished.add(ack);
            } else {
                held--;
            }
            wakeIfDue();
        } finally {
            lock.unlock();
        }
    }

    /** Throws what went wrong in a fetch thread or a handler, if anything. */
    @Override
    public void rethrowFailure() {
        Throwable cause = failure.get();
        if (cause != null) {
            throw new IllegalStateException("the benchmark worker failed: " + cause, cause);
        }
    }

    @Override
    public void close() {
        running = false;
        lock.lock();
        try {
            callDue.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            for (Thread fetcher : fetchers) {
                fetcher.join(fetchWait.toMillis() + 5_000);
            }
            handlers.shutdown();
            handlers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            handlers.shutdownNow();
            consumer.close();
        }
    }
}
