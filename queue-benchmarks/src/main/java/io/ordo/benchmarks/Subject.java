package io.ordo.benchmarks;

/** A contender, opened on the run's redis-server, that runs the workloads. */
interface Subject extends AutoCloseable {
    boolean supports(Workload workload);

    /** Runs once before anything is measured: connections, scripts and JIT warm. */
    void warmUp(BenchContext context);

    /**
     * One repetition of the workload; for the workloads that repeat inside one run ({@link
     * BenchContext#repeatsInside}) all of them. Starts on an empty server.
     */
    Measurement run(Workload workload, BenchContext context);

    @Override
    void close();
}
