package io.ordo.dashboard;

import java.util.function.LongSupplier;

/**
 * How many backend reads the dashboard's API may make: at most {@code perSecond} a second over
 * every client and page, with bursts of up to one second's worth (a token bucket). A read past the
 * budget is refused at once (the page tries again on its next refresh), so no client, however
 * fast it asks, makes Redis busier than that.
 */
final class ReadBudget {
    private static final double SECOND = 1_000_000_000d;

    private final LongSupplier nanoTime;
    private final int perSecond;
    private double tokens;
    private long refilledAt;

    ReadBudget(LongSupplier nanoTime, int perSecond) {
        this.nanoTime = nanoTime;
        this.perSecond = perSecond;
        this.tokens = perSecond;
        this.refilledAt = nanoTime.getAsLong();
    }

    int perSecond() {
        return perSecond;
    }

    /** Takes one read from the budget; false when it is spent. */
    synchronized boolean take() {
        long now = nanoTime.getAsLong();
        tokens = Math.min(perSecond, tokens + (now - refilledAt) * perSecond / SECOND);
        refilledAt = now;
        if (tokens < 1) {
            return false;
        }
        tokens--;
        return true;
    }
}
