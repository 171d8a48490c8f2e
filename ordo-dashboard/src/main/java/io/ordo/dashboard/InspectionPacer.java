package io.ordo.dashboard;

import io.ordo.ports.QueueInspection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Spaces out inspections by what they cost. An inspection reads every partition of a queue in one
 * atomic step (docs/decisions/queue-inspection.md), so on a queue with a million partitions it
 * holds Redis for seconds; pages refreshing every few seconds, or a client asking in a loop, must
 * not do that again and again. After an inspection that took {@code d}, no queue is inspected
 * again sooner than {@value #COST_FACTOR}·{@code d} later and never two at once, which keeps the
 * dashboard's share of Redis time below 1/{@value #COST_FACTOR} whatever is asked: which queues or
 * consumer groups, how often, with which parameters. Meanwhile a queue's page gets its last reading (its
 * {@code inspectedAt} says how old it is), or none yet. An action on a queue forgets its reading
 * and lets it be inspected at once, so its effect shows. At most {@value #MAX_READINGS} readings
 * are kept, the least recently used dropped first.
 */
final class InspectionPacer {
    static final int COST_FACTOR = 20;
    static final int MAX_READINGS = 256;

    private final LongSupplier nanoTime;
    private final Map<QueueView, QueueInspection> readings = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<QueueView, QueueInspection> eldest) {
            return size() > MAX_READINGS;
        }
    };
    private long notBeforeNanos;
    private boolean inspecting;

    InspectionPacer(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.notBeforeNanos = nanoTime.getAsLong();
    }

    /** The view's inspection (a queue's own, or a group's): a fresh one when the pacing allows, else its last one, if any. */
    Optional<QueueInspection> inspect(QueueView view, Supplier<QueueInspection> inspection) {
        synchronized (this) {
            if (inspecting || nanoTime.getAsLong() - notBeforeNanos < 0) {
                return Optional.ofNullable(readings.get(view));
            }
            inspecting = true;
        }
        long started = nanoTime.getAsLong();
        boolean answered = false;
        try {
            QueueInspection fresh = inspection.get();
            answered = true;
            synchronized (this) {
                readings.put(view, fresh);
            }
            return Optional.of(fresh);
        } finally {
            long finished = nanoTime.getAsLong();
            synchronized (this) {
                inspecting = false;
                // a failed inspection mostly waited (a timeout), it did not work Redis for that long
                notBeforeNanos = finished + (answered ? COST_FACTOR : 1) * (finished - started);
            }
        }
    }

    /** Drops the view's last reading and lets the next inspection go ahead (after an action that changes what it shows). */
    synchronized void forget(QueueView view) {
        readings.remove(view);
        notBeforeNanos = Math.min(notBeforeNanos, nanoTime.getAsLong());
    }

    synchronized int readingsKept() {
        return readings.size();
    }
}
