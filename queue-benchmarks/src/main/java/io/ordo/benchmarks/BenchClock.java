package io.ordo.benchmarks;

/**
 * Monotonic nanoseconds since the harness started: positive, so they fit the payload's digits, and
 * comparable between the publishing and the handling thread of one process.
 */
final class BenchClock {
    private static final long ORIGIN = System.nanoTime();

    private BenchClock() {
    }

    static long nanos() {
        return System.nanoTime() - ORIGIN;
    }
}
