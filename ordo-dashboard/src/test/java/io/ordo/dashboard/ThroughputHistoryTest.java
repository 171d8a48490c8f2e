package io.ordo.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.QueueStats;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Rates from readings of the running totals: per queue, summed, bounded, never negative. */
class ThroughputHistoryTest {
    private static final QueueName ORDERS = QueueName.of("orders");
    private static final QueueName EMAILS = QueueName.of("emails");

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Map<QueueName, long[]> totals = new HashMap<>(); // published, acked, dead-lettered

    private final ThroughputHistory history = new ThroughputHistory(() -> List.copyOf(totals.keySet()),
            queue -> stats(totals.get(queue)), now::get, Duration.ofSeconds(5), Duration.ofSeconds(20));

    @Test
    void rates_are_differences_per_second_between_neighbouring_readings() {
        totals.put(ORDERS, new long[] {100, 50, 1});
        totals.put(EMAILS, new long[] {10, 10, 0});
        history.sample();
        now.addAndGet(5000);
        totals.put(ORDERS, new long[] {150, 100, 6});
        totals.put(EMAILS, new long[] {20, 15, 0});
        history.sample();

        assertThat(history.rates(ORDERS)).containsExactly(new ThroughputHistory.Rate(1_005_000, 10, 10, 1));
        assertThat(history.rates(EMAILS)).containsExactly(new ThroughputHistory.Rate(1_005_000, 2, 1, 0));
        assertThat(history.totalRates()).containsExactly(new ThroughputHistory.Rate(1_005_000, 12, 11, 1));
    }

    @Test
    void a_total_that_went_down_counts_as_no_progress_and_the_window_is_bounded() {
        totals.put(ORDERS, new long[] {100, 100, 0});
        for (int i = 0; i < 10; i++) {
            history.sample();
            now.addAndGet(5000);
            totals.put(ORDERS, i == 4 ? new long[] {0, 0, 0} : new long[] {totals.get(ORDERS)[0] + 5, totals.get(ORDERS)[1] + 5, 0});
        }
        List<ThroughputHistory.Rate> rates = history.rates(ORDERS);
        assertThat(rates).as("20 s of 5 s readings: 5 readings, 4 rates").hasSize(4);
        assertThat(rates).allSatisfy(rate -> assertThat(rate.acked()).isBetween(0.0, 1.0));
    }

    private static QueueStats stats(long[] t) {
        return new QueueStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, t[0], t[1], t[2], false);
    }
}
