package io.ordo.benchmarks;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the harness sees of a drain: every task handled exactly once and acked exactly once, and, for
 * ordered partitions, each partition's tasks handled in publish order. Also keeps each task's latency
 * (publish call start to handler start) when asked.
 */
final class Ledger {
    private final int tasks;
    private final AtomicIntegerArray handled;
    private final LongAdder distinct = new LongAdder();
    private final AtomicIntegerArray nextPlace;
    private final long[] latencyNanos;
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder violations = new LongAdder();
    private final LongAdder ackRefused = new LongAdder();
    private final AtomicLong acked = new AtomicLong();
    private volatile long lastAckNanos;

    /**
     * @param tasks             how many tasks the run publishes (their indexes are 0..tasks-1)
     * @param orderedPartitions partitions whose order is checked (0: none)
     * @param keepLatencies     whether to keep each task's latency
     */
    Ledger(int tasks, int orderedPartitions, boolean keepLatencies) {
        this.tasks = tasks;
        this.handled = new AtomicIntegerArray(tasks);
        this.nextPlace = orderedPartitions > 0 ? new AtomicIntegerArray(orderedPartitions) : null;
        this.latencyNanos = keepLatencies ? new long[tasks] : null;
    }

    /** Called by a handler thread as it starts a task. */
    void handle(byte[] payload) {
        long now = BenchClock.nanos();
        int index = BenchPayload.index(payload);
        handle(index);
        if (latencyNanos != null) {
            latencyNanos[index] = now - BenchPayload.sentNanos(payload);
        }
        if (nextPlace != null) {
            int partition = BenchPayload.partition(payload);
            int place = BenchPayload.place(payload);
            if (!nextPlace.compareAndSet(partition, place, place + 1)) {
                violations.increment();
                nextPlace.set(partition, place + 1);
            }
        }
    }

    /** Called by a handler that read the task's index itself: the exactly-once bookkeeping only. */
    void handle(int index) {
        if (handled.getAndIncrement(index) > 0) {
            duplicates.increment();
        } else {
            distinct.increment();
        }
    }

    /** Called after the ack of one task was answered. */
    void acked(boolean accepted) {
        acked(1, accepted ? 1 : 0);
    }

    /** Called after an ack call for {@code count} tasks returned, {@code accepted} of them acked. */
    void acked(int count, int accepted) {
        ackRefused.add(count - accepted);
        acked.addAndGet(count);
        lastAckNanos = System.nanoTime();
    }

    /**
     * Waits until {@code count} acks returned in all, looking every millisecond (a wake-up per ack would
     * cost the handlers more); false on timeout. {@link #lastAckNanos()} tells when the last one came.
     */
    boolean awaitAcked(long count, Duration timeout, Runnable failureCheck) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (acked.get() < count) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            failureCheck.run();
            Thread.sleep(1);
        }
        return true;
    }

    /** {@link System#nanoTime()} when the latest ack returned. */
    long lastAckNanos() {
        return lastAckNanos;
    }

    long acked() {
        return acked.get();
    }

    long violations() {
        return violations.sum();
    }

    /** Latencies in nanoseconds of the tasks handled so far (unhandled ones are left out). */
    long[] latencies() {
        long[] kept = new long[tasks];
        int n = 0;
        for (int i = 0; i < tasks; i++) {
            if (handled.get(i) > 0) {
                kept[n++] = latencyNanos[i];
            }
        }
        return java.util.Arrays.copyOf(kept, n);
    }

    /** The exactly-once check: {@code expected} distinct tasks handled, none twice, each ack accepted once. */
    Measurement.Check exactlyOnce(long expected) {
        long missing = expected - distinct.sum();
        boolean passed = missing == 0 && duplicates.sum() == 0 && ackRefused.sum() == 0 && acked.get() == expected;
        return new Measurement.Check("each task handled and acked exactly once", passed,
                String.format("%,d tasks: %,d acked, %,d acks refused, %,d handled twice, %,d never handled",
                        expected, acked.get(), ackRefused.sum(), duplicates.sum(), missing));
    }
}
