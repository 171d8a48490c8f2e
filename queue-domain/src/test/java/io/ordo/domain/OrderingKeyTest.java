package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OrderingKeyTest {
    @Test
    void higher_priority_goes_first_then_earlier_due_then_earlier_seq() {
        OrderingKey highLate = new OrderingKey(5, 2_000, 9);
        OrderingKey lowEarly = new OrderingKey(0, 1_000, 1);
        OrderingKey lowEarlyLaterSeq = new OrderingKey(0, 1_000, 2);
        OrderingKey lowLate = new OrderingKey(0, 1_500, 0);

        List<OrderingKey> keys = new ArrayList<>(List.of(lowLate, lowEarlyLaterSeq, lowEarly, highLate));
        keys.sort(null);

        assertThat(keys).containsExactly(highLate, lowEarly, lowEarlyLaterSeq, lowLate);
    }

    @Test
    void negative_priorities_go_after_the_default() {
        assertThat(new OrderingKey(-1, 0, 0)).isGreaterThan(new OrderingKey(0, 5, 5));
    }
}
