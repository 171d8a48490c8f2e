package io.ordo.ports;

/**
 * A source of elapsed time in nanoseconds, with no relation to the wall clock: what grace periods,
 * waits and durations are measured on. A port beside {@link Clock}, so tests move it by hand and
 * run a grace period of an hour without waiting one.
 */
@FunctionalInterface
public interface Ticker {
    /** Nanoseconds since an arbitrary origin; only differences between two readings mean anything. */
    long nanos();

    /** The machine's monotonic timer, {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
