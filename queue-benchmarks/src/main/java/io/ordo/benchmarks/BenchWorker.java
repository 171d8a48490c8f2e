package io.ordo.benchmarks;

/** A worker draining tasks into a {@link Ledger}: the harness's own driver or the worker runtime. */
interface BenchWorker extends AutoCloseable {
    /** Throws what went wrong in the worker, if anything. */
    void rethrowFailure();

    /** Stops the worker and releases what it opened. */
    @Override
    void close();
}
