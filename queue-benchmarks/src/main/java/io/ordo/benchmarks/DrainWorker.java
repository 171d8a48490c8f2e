package io.ordo.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The consume side of the workloads: one worker with a fetch thread and a pool of handler threads,
 * holding at most {@code prefetch} tasks at once. Regular tasks run in parallel; an ordered batch runs
 * task after task on one thread. Each task is acked by its own call as soon as its handler returns,
 * the way a worker acks each task ("ack each"). The worker runtime's defaults are followed where the
 * workload says nothing: heartbeat and reaper run every 10 s, and the idle worker's fetch waits up to a
 * second ({@link #IDLE_FETCH_WAIT}).
 */
final class DrainWorker implements AutoCloseable {
    /** The worker runtime's default fetch wait: what an idle worker costs depends on it. */
    static final Duration IDLE_FETCH_WAIT = Duration.ofSeconds(1);
    /**
     * Set by {@code --coalesce-acks}: a diagnostic of what acking several tasks per call would gain. The
     * workloads themselves ack each task with its own call, as the worker runtime does.
     */
    static volatile boolean coalesceAcksForDiagnosis;
    /** Where a wait only matters at the end of a run: shorter, so a worker closes quickly. */
    static final Duration BUSY_FETCH_WAIT = Duration.ofMillis(200);

    private final BenchQueue.Consumer consumer;
    private final Ledger ledger;
    private final long limit;
    private final Duration fetchWait;
    private final Semaphore room;
    private final ExecutorService handlers;
    private final Thread fetcher;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final boolean coalesceAcks = coalesceAcksForDiagnosis;
    private final ConcurrentLinkedQueue<BenchQueue.Delivery> pendingAcks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean acking = new AtomicBoolean();
    private volatile boolean running = true;

    /**
     * @param limit     how many tasks to fetch in all before the fetch loop ends (Long.MAX_VALUE: no end)
     * @param fetchWait how long one fetch waits when there is nothing to take
     */
    DrainWorker(BenchQueue.Consumer consumer, Ledger ledger, int handlerThreads, int prefetch, long limit,
                Duration fetchWait) {
        this.consumer = consumer;
        this.ledger = ledger;
        this.limit = limit;
        this.fetchWait = fetchWait;
        this.room = new Semaphore(prefetch);
        this.handlers = Executors.newFixedThreadPool(handlerThreads, runnable -> {
            Thread thread = new Thread(runnable, "bench-handler");
            thread.setDaemon(true);
            return thread;
        });
        this.fetcher = new Thread(this::fetchLoop, "bench-fetcher");
        fetcher.setDaemon(true);
    }

    DrainWorker start() {
        fetcher.start();
        return this;
    }

    private void fetchLoop() {
        long fetched = 0;
        long nextKeepAlive = System.nanoTime();
        try {
            while (running && fetched < limit) {
                if (System.nanoTime() - nextKeepAlive >= 0) {
                    consumer.keepAlive();
                    nextKeepAlive = System.nanoTime() + OrdoQueue.KEEP_ALIVE_INTERVAL.toNanos();
                }
                if (!room.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                int wanted = (int) Math.min(1 + room.drainPermits(), limit - fetched);
                List<BenchQueue.Delivery> batch = running ? consumer.fetch(wanted, fetchWait) : List.of();
                room.release(wanted - batch.size());
                fetched += batch.size();
                dispatch(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            if (running) {
                failure.compareAndSet(null, e);
            }
        }
    }

    /** Regular tasks one per thread; the consecutive tasks of one ordered partition as one job. */
    private void dispatch(List<BenchQueue.Delivery> batch) {
        Map<String, List<BenchQueue.Delivery>> ordered = new LinkedHashMap<>();
        for (BenchQueue.Delivery delivery : batch) {
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
                if (coalesceAcks) {
                    ackCoalesced(delivery);
                } else {
                    ledger.acked(consumer.ack(delivery));
                    room.release();
                }
            }
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        }
    }

    /**
     * The diagnostic variant: a finished task's ack joins the next ack call. While one call is in flight
     * the acks of tasks finishing meanwhile queue up; whichever handler finds no call in flight sends
     * them all in one. No task waits for another's handler, only for the call before it.
     */
    private void ackCoalesced(BenchQueue.Delivery delivery) {
        pendingAcks.add(delivery);
        while (!pendingAcks.isEmpty() && acking.compareAndSet(false, true)) {
            try {
                List<BenchQueue.Delivery> batch = new ArrayList<>();
                for (BenchQueue.Delivery next; (next = pendingAcks.poll()) != null; ) {
                    batch.add(next);
                }
                if (!batch.isEmpty()) {
                    ledger.acked(batch.size(), consumer.ackAll(batch));
                    room.release(batch.size());
                }
            } finally {
                acking.set(false);
            }
        }
    }

    /** Throws what went wrong in the fetch loop or a handler, if anything. */
    void rethrowFailure() {
        Throwable cause = failure.get();
        if (cause != null) {
            throw new IllegalStateException("the benchmark worker failed: " + cause, cause);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            fetcher.join(fetchWait.toMillis() + 5_000);
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
