package io.ordo.dashboard;

import io.ordo.ports.QueueStats;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Bounds what the dashboard's reads of queue statistics cost the backend, however many pages or
 * clients ask: a view's reading (a queue's own, or one of its consumer groups') serves every request for
 * {@code reuseFor} (at most a second), and
 * fresh readings come out of the dashboard's {@link ReadBudget}. At most {@value #MAX_READINGS} readings are kept, the least recently used
 * dropped first.
 */
final class StatsPacer {
    static final int MAX_READINGS = 1024;
    private static final long SECOND = 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final long reuseForNanos;
    private final Map<QueueView, Reading> readings = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<QueueView, Reading> eldest) {
            return size() > MAX_READINGS;
        }
    };
    private final ReadBudget budget;

    StatsPacer(LongSupplier nanoTime, Duration reuseFor, ReadBudget budget) {
        this.nanoTime = nanoTime;
        this.reuseForNanos = Math.min(reuseFor.toNanos(), SECOND);
        this.budget = budget;
    }

    /** The view's statistics, read afresh when the last reading is too old and the budget allows; empty when it does not. */
    Optional<QueueStats> stats(QueueView view, Supplier<QueueStats> read) {
        synchronized (this) {
            long now = nanoTime.getAsLong();
            Reading last = readings.get(view);
            if (last != null && now - last.readAt() < reuseForNanos) {
                return Optional.of(last.stats());
            }
        }
        if (!budget.take()) {
            return Optional.empty();
        }
        QueueStats fresh = read.get();
        synchronized (this) {
            readings.put(view, new Reading(fresh, nanoTime.getAsLong()));
        }
        return Optional.of(fresh);
    }

    /** Drops the view's last reading (after an action that changes it). */
    synchronized void forget(QueueView view) {
        readings.remove(view);
    }

    synchronized int readingsKept() {
        return readings.size();
    }

    private record Reading(QueueStats stats, long readAt) {
    }
}
