package io.ordo.domain;

import java.time.Duration;

/**
 * A token bucket: {@code permits} tokens every {@code per}, at most {@code burst} kept. Each delivery takes one
 * token; a bucket starts full. {@link #OFF} (all zero) means no limit.
 *
 * <p>Stores count in exact integers: a bucket holds {@code tokens * per} units (milliseconds times permits), gains
 * {@code permits} units a millisecond and gives {@code per} units a delivery, so every backend refills alike.
 *
 * @param permits tokens added every {@code per}, 1..1,000,000 (0 only for {@link #OFF})
 * @param per     the period they are added over, 1 ms..1 day
 * @param burst   the most tokens kept (deliveries in a row after a quiet spell), 1..1,000,000
 */
public record RateLimit(int permits, Duration per, int burst) {
    public static final int MAX_PERMITS = 1_000_000;
    public static final int MAX_BURST = 1_000_000;
    public static final Duration MAX_PERIOD = Duration.ofDays(1);
    public static final RateLimit OFF = new RateLimit(0, Duration.ZERO, 0);

    public RateLimit {
        Validate.notNull("per", per);
        if (permits != 0 || !per.isZero() || burst != 0) {
            Validate.range("permits", permits, 1, MAX_PERMITS);
            Validate.duration("per", per, MAX_PERIOD);
            if (per.toMillis() < 1) {
                throw new InvalidInputException("per", "must be at least 1 ms, was " + per);
            }
            if (!per.equals(Duration.ofMillis(per.toMillis()))) {
                throw new InvalidInputException("per", "must be whole milliseconds, was " + per);
            }
            Validate.range("burst", burst, 1, MAX_BURST);
        }
    }

    /** {@code permits} every {@code per}, with a burst of as many. */
    public static RateLimit of(int permits, Duration per) {
        return new RateLimit(permits, per, permits);
    }

    public RateLimit withBurst(int value) {
        return new RateLimit(permits, per, value);
    }

    public boolean isOff() {
        return permits == 0;
    }

    public long periodMillis() {
        return per.toMillis();
    }

    /** The units a full bucket holds. */
    public long capacityUnits() {
        return (long) burst * per.toMillis();
    }

    /**
     * The units a bucket holds at {@code now}, given {@code units} at {@code at}: refilled, at most full.
     * Elapsed time is cut at what fills the bucket, so no product overflows.
     */
    public long unitsAt(long units, long at, long now) {
        long capacity = capacityUnits();
        long elapsed = Math.max(0, now - at);
        long toFill = (capacity - units + permits - 1) / permits;
        if (elapsed >= toFill) {
            return capacity;
        }
        return units + elapsed * permits;
    }

    /** When a bucket holding {@code units} (less than one token) at {@code now} has a whole token. */
    public long nextTokenAt(long units, long now) {
        long missing = per.toMillis() - units;
        return missing <= 0 ? now : now + (missing + permits - 1) / permits;
    }

    @Override
    public String toString() {
        return isOff() ? "off" : permits + " per " + per.toMillis() + " ms, burst " + burst;
    }
}
