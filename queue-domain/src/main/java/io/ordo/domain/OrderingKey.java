package io.ordo.domain;

import java.util.Comparator;

/**
 * The order in which a partition's tasks are taken: priority descending, due time ascending,
 * then publish sequence ascending, so tasks published in the same millisecond keep publish order.
 * Across partitions the same comparison picks among the heads.
 */
public record OrderingKey(int priority, long dueAt, long seq) implements Comparable<OrderingKey> {
    private static final Comparator<OrderingKey> ORDER = Comparator
            .comparingInt((OrderingKey key) -> -key.priority)
            .thenComparingLong(OrderingKey::dueAt)
            .thenComparingLong(OrderingKey::seq);

    @Override
    public int compareTo(OrderingKey other) {
        return ORDER.compare(this, other);
    }
}
