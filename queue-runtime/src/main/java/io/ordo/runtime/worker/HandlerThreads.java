package io.ordo.runtime.worker;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads that run handlers: the concurrency, plus one in place of each thread stuck in a
 * handler the worker gave up on (past its deadline, or cancelled and deaf to its interrupt; at most
 * the concurrency more), so a hung handler never costs the worker its capacity
 * (docs/decisions/hung-handlers.md, cancelling-running-tasks.md).
 */
final class HandlerThreads {
    /**
     * How long an interrupted handler gets to return before the worker stops waiting for it: at the end of
     * shutdown's grace period, and of a cancelled task's grace (then its thread is given up and replaced).
     */
    static final Duration INTERRUPTED_HANDLER_WAIT = Duration.ofSeconds(1);

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

    /**
     * Gives up on a running task's handler: claims the task (its outcome will be dropped), puts a thread in
     * place of the one stuck in it and interrupts that one; false if the task was no longer running.
     */
    boolean giveUp(HeldTask task) {
        if (!task.claimGivenUp(this::addReplacement)) {
            return false;
        }
        task.interruptRunner();
        return true;
    }

    /** The handler of a task given up on returned after all: the thread put in its place is no longer needed. */
    void givenUpHandlerReturned(HeldTask task) {
        if (task.wasThreadReplaced()) {
            retireReplacement();
        }
    }

    /** Runs the job on a handler thread, or on this one when the pool takes no more (shutting down). */
    void executeOrRunHere(Runnable job) {
        try {
            pool.execute(job);
        } catch (RejectedExecutionException e) {
            job.run();
        }
    }

    /** One more thread while one is stuck; false when the concurrency's worth is already added. */
    private synchronized boolean addReplacement() {
        if (replacements >= concurrency) {
            return false;
        }
        resize(++replacements);
        return true;
    }

    /** A stuck handler returned after all: its replacement is no longer needed (the surplus thread ends when idle). */
    private synchronized void retireReplacement() {
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
