package io.ordo.runtime.worker;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads that run handlers: the concurrency, plus one in place of each thread stuck in a
 * handler the processing timeout gave up on (at most the concurrency more), so a hung handler never
 * costs the worker its capacity (docs/decisions/hung-handlers.md).
 */
final class HandlerThreads {
    private final int concurrency;
    private final ThreadPoolExecutor pool;
    /** Guarded by {@code this}. */
    private int replacements;

    HandlerThreads(int concurrency, ThreadFactory threads) {
        this.concurrency = concurrency;
        this.pool = new ThreadPoolExecutor(concurrency, concurrency, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads);
    }

    /** Runs the job on a handler thread when one is free; refused once shutting down. */
    void execute(Runnable job) throws RejectedExecutionException {
        pool.execute(job);
    }

    /** One more thread while one is stuck; false when the concurrency's worth is already added. */
    synchronized boolean addReplacement() {
        if (replacements >= concurrency) {
            return false;
        }
        resize(++replacements);
        return true;
    }

    /** A stuck handler returned after all: its replacement is no longer needed (the surplus thread ends when idle). */
    synchronized void retireReplacement() {
        resize(--replacements);
    }

    /** Threads added in place of stuck ones, now. */
    synchronized int replacements() {
        return replacements;
    }

    /** Takes no more jobs; those queued and running go on. */
    void shutdown() {
        pool.shutdown();
    }

    /** Interrupts every running handler and drops the jobs not started. */
    void shutdownNow() {
        pool.shutdownNow();
    }

    /** Waits up to {@code timeout} for every job to end; whether they did. */
    boolean awaitTermination(Duration timeout) {
        try {
            return pool.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The concurrency plus {@code added} threads; the pool never has its core above its maximum. */
    private void resize(int added) {
        int size = concurrency + added;
        if (size > pool.getMaximumPoolSize()) {
            pool.setMaximumPoolSize(size);
            pool.setCorePoolSize(size);
        } else {
            pool.setCorePoolSize(size);
            pool.setMaximumPoolSize(size);
        }
    }
}
