package io.ordo.benchmarks;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.domain.Lease;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Scheduler;
import io.ordo.runtime.worker.Settlement;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerListener;
import io.ordo.runtime.worker.WorkerOptions;
import io.ordo.runtime.worker.WorkerState;

/**
 * The worker runtime's {@link Worker}, the one applications run, on an Ordo queue of the harness: wired
 * as {@link io.ordo.runtime.Workers} wires it (the JSON codec, Micrometer metrics and queue gauges, the
 * runtime's scheduler), retries, heartbeats and reaper at their defaults. Its fetch wait is the bare
 * driver's in a drain ({@link DrainWorker#BUSY_FETCH_WAIT}): it only matters once the queue is empty, and
 * the worker stops sooner. Its handler decodes each payload into an {@link Order} and does nothing else
 * but the harness's bookkeeping.
 */
final class RuntimeWorker implements BenchWorker {
    /** The benchmark payload ({@link BenchPayload}) as a handler receives it from the runtime's JSON codec. */
    record Order(String i, String p, String k, String t, String cust, int amount) {
    }

    private final Scheduler scheduler = Scheduler.system();
    private final Worker<Order> worker;

    RuntimeWorker(OrdoQueue queue, String consumer, Ledger ledger, int concurrency, int prefetch) {
        WorkerOptions options = WorkerOptions.builder().consumer(consumer).concurrency(concurrency).prefetch(prefetch)
                .fetchWait(DrainWorker.BUSY_FETCH_WAIT).build();
        worker = queue.workers(new SimpleMeterRegistry(), scheduler).worker(OrdoQueue.QUEUE, Order.class,
                (order, context) -> {
                    ledger.handle(Integer.parseInt(order.i()));
                    return Outcome.success();
                }, options, new WorkerListener() {
                    @Override
                    public void taskSettled(Lease lease, Settlement settlement) {
                        ledger.acked(settlement == Settlement.PROCESSED); // anything else is a retry or a loss
                    }
                });
        worker.start();
    }

    @Override
    public void rethrowFailure() {
        if (worker.state() == WorkerState.FAILED) {
            throw new IllegalStateException("the runtime worker's fetch loop died");
        }
    }

    @Override
    public void close() {
        try {
            worker.stop();
        } finally {
            scheduler.close();
        }
    }
}
