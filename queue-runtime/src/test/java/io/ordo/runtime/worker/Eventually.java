package io.ordo.runtime.worker;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for something the worker's threads do, on real time, bounded so a broken test fails fast. */
final class Eventually {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Eventually() {
    }

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what);
            }
            pause(2);
        }
    }

    /** Holds still for a while so that something that should not happen has a chance to. */
    static void holdStill(Duration duration) {
        pause(duration.toMillis());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
