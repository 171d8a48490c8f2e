package io.ordo.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The consume side of the workloads: one worker with a fetch thread and a pool of handler threads,
 * holding at most {@code prefetch} tasks at once. Regular tasks run in parallel; an ordered batch runs
 * task after task on one thread. Each task is acked as soon as its handler returns, grouped the way the
 * worker runtime groups acks by default (docs/decisions/worker-ack-grouping.md): a handler that finds no
 * ack call in flight sends its ack at once; acks of tasks finishing meanwhile go together in the next
 * call (up to {@link #ACKS_PER_CALL}); an ordered batch goes on only once its task's ack has been
 * answered. {@code --ack-each} sends one call per task instead (the runtime's {@code groupAcks(false)}).
 * The worker runtime's defaults are followed where the workload says nothing: heartbeat and reaper run
 * every 10 s, and the idle worker's fetch waits up to a second ({@link #IDLE_FETCH_WAIT}).
 */
final class DrainWorker implements AutoCloseable {
    /** The worker runtime's default fetch wait: what an idle worker costs depends on it. */
    static final Duration IDLE_FETCH_WAIT = Duration.ofSeconds(1);
    /** Set by {@code --ack-each}: one ack call per task, as the worker runtime with {@code groupAcks(false)}. */
    static volatile boolean ackEachTask;
    /** As the worker runtime's {@code WorkerOptions.ACKS_PER_CALL}. */
    static final int ACKS_PER_CALL = 100;
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
    private final boolean groupAcks = !ackEachTask;
    private final ConcurrentLinkedQueue<PendingAck> pendingAcks = new ConcurrentLinkedQueue<>();
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
            for (int i = 0; i < run.size(); i++) {
                BenchQueue.Delivery delivery = run.get(i);
                ledger.handle(delivery.payload()); // the no-op handler, plus the harness's bookkeeping
                if (groupAcks) {
                    CountDownLatch answered = ackGrouped(delivery);
                    if (i + 1 < run.size()) {
                        answered.await(); // the rest of an ordered batch waits for this ack's answer
                    }
                } else {
                    ledger.acked(consumer.ack(delivery));
                    room.release();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        }
    }

    private record PendingAck(BenchQueue.Delivery delivery, CountDownLatch answered) {
    }

    /**
     * A finished task's ack joins the next ack call. While one call is in flight the acks of tasks
     * finishing meanwhile queue up; whichever handler finds no call in flight sends them, up to
     * {@link #ACKS_PER_CALL} per call. No task waits for another's handler, only for the call before it.
     */
    private CountDownLatch ackGrouped(BenchQueue.Delivery delivery) {
        PendingAck ack = new PendingAck(delivery, new CountDownLatch(1));
        pendingAcks.add(ack);
        while (!pendingAcks.isEmpty() && acking.compareAndSet(false, true)) {
            List<PendingAck> batch = new ArrayList<>();
            try {
                for (PendingAck next; batch.size() < ACKS_PER_CALL && (next = pendingAcks.poll()) != null; ) {
                    batch.add(next);
                }
                if (!batch.isEmpty()) {
                    List<BenchQueue.Delivery> deliveries = new ArrayList<>(batch.size());
                    batch.forEach(pending -> deliveries.add(pending.delivery()));
                    ledger.acked(batch.size(), consumer.ackAll(deliveries));
                    room.release(batch.size());
                }
            } finally {
                acking.set(false);
                batch.forEach(pending -> pending.answered().countDown());
            }
        }
        return ack.answered();
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
