package io.ordo.cli.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueInspection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * Spaces out inspections of one queue by what they cost. An inspection reads every partition of a
 * queue in one atomic step (docs/decisions/queue-inspection.md), so on a queue with a million
 * partitions it holds Redis for seconds; a page refreshing every few seconds must not do that
 * again and again. After an inspection that took {@code d}, the same queue is inspected again no
 * sooner than {@value #COST_FACTOR}·{@code d} later, which keeps the dashboard's share of Redis time
 * near 1/{@value #COST_FACTOR}; pages asking meanwhile get the last reading (its {@code inspectedAt}
 * says how old it is). An action on the queue forgets the reading, so its effect shows at once.
 */
final class InspectionPacer {
    static final int COST_FACTOR = 20;

    private final LongSupplier nanoTime;
    private final Map<QueueName, Reading> readings = new ConcurrentHashMap<>();

    InspectionPacer(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** The queue's inspection at {@code limit}: a fresh one, or the last one while it is too soon to ask again. */
    QueueInspection inspect(QueueName queue, int limit, IntFunction<QueueInspection> inspection) {
        Reading last = readings.get(queue);
        if (last != null && last.limit() == limit && nanoTime.getAsLong() < last.notBeforeNanos()) {
            return last.inspection();
        }
        long started = nanoTime.getAsLong();
        QueueInspection fresh = inspection.apply(limit);
        long finished = nanoTime.getAsLong();
        readings.put(queue, new Reading(fresh, limit, finished + COST_FACTOR * (finished - started)));
        return fresh;
    }

    /** Drops the queue's last reading (after an action that changes what it shows). */
    void forget(QueueName queue) {
        readings.remove(queue);
    }

    private record Reading(QueueInspection inspection, int limit, long notBeforeNanos) {
    }
}
