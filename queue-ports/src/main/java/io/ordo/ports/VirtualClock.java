package io.ordo.ports;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that only moves when told to: makes time-dependent behaviour exact and replayable. */
public final class VirtualClock implements Clock {
    /** 2026-01-01T00:00:00Z: a fixed, realistic start so timestamps read naturally. */
    public static final long DEFAULT_START_MILLIS = 1_767_225_600_000L;

    private final AtomicLong now;

    public VirtualClock(long startMillis) {
        this.now = new AtomicLong(startMillis);
    }

    public VirtualClock() {
        this(DEFAULT_START_MILLIS);
    }

    @Override
    public long millis() {
        return now.get();
    }

    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a virtual clock only moves forward, was asked to move " + duration);
        }
        now.addAndGet(duration.toMillis());
    }

    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }
}
