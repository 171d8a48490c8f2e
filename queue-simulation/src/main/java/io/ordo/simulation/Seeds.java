package io.ordo.simulation;

import java.util.stream.LongStream;

/**
 * The seeds a simulation test runs, from system properties: {@value #SEED} replays one seed,
 * {@value #COUNT} changes how many (seeds 1..N), otherwise the test's default count.
 */
public final class Seeds {
    /** Replays exactly this seed. */
    public static final String SEED = "ordo.simulation.seed";
    /** How many seeds to run. */
    public static final String COUNT = "ordo.simulation.seeds";

    private Seeds() {
    }

    /** Whether one seed is being replayed: then a failure is worth showing with its whole trace. */
    public static boolean replaying() {
        String seed = System.getProperty(SEED);
        return seed != null && !seed.isBlank();
    }

    /** The seeds to run: the one named by {@value #SEED}, or 1..{@value #COUNT} (default {@code defaultCount}). */
    public static long[] fromSystemProperties(int defaultCount) {
        String seed = System.getProperty(SEED);
        if (seed != null && !seed.isBlank()) {
            return new long[] {Long.parseLong(seed.trim())};
        }
        String count = System.getProperty(COUNT);
        int n = count == null || count.isBlank() ? defaultCount : Integer.parseInt(count.trim());
        return LongStream.rangeClosed(1, n).toArray();
    }
}
