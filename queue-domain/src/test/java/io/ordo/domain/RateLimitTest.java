package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The token bucket's arithmetic every store repeats (docs/semantics.md, "Caps and rate limits"). */
class RateLimitTest {
    private final RateLimit threePerSecond = new RateLimit(3, Duration.ofSeconds(1), 2);

    @Test
    void a_bucket_gains_permits_units_a_millisecond_up_to_its_burst() {
        assertThat(threePerSecond.capacityUnits()).isEqualTo(2000);
        assertThat(threePerSecond.unitsAt(0, 1_000, 1_100)).isEqualTo(300);
        assertThat(threePerSecond.unitsAt(0, 1_000, 1_666)).isEqualTo(1998);
        assertThat(threePerSecond.unitsAt(0, 1_000, 1_667)).isEqualTo(2000);
        assertThat(threePerSecond.unitsAt(1500, 1_000, 500)).as("a clock behind adds nothing").isEqualTo(1500);
    }

    @Test
    void the_next_token_is_the_first_millisecond_with_a_whole_one() {
        assertThat(threePerSecond.nextTokenAt(0, 1_000)).isEqualTo(1_334); // 334 ms · 3 = 1002 ≥ 1000
        assertThat(threePerSecond.nextTokenAt(999, 1_000)).isEqualTo(1_001);
        assertThat(threePerSecond.nextTokenAt(1000, 1_000)).isEqualTo(1_000);
    }

    @Test
    void years_of_quiet_do_not_overflow() {
        RateLimit most = new RateLimit(RateLimit.MAX_PERMITS, RateLimit.MAX_PERIOD, RateLimit.MAX_BURST);
        assertThat(most.unitsAt(0, 0, Long.MAX_VALUE / 2)).isEqualTo(most.capacityUnits());
    }

    @Test
    void bad_limits_are_refused_naming_the_part() {
        assertThatThrownBy(() -> new RateLimit(0, Duration.ofSeconds(1), 1))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("permits"));
        assertThatThrownBy(() -> new RateLimit(1, Duration.ofNanos(10), 1))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("per"));
        assertThatThrownBy(() -> new RateLimit(1, Duration.ofSeconds(1), RateLimit.MAX_BURST + 1))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("burst"));
        assertThat(RateLimit.OFF.isOff()).isTrue();
    }

    @Test
    void a_partitions_cap_is_its_override_else_the_partition_cap_and_ordered_ones_take_none() {
        Partition wide = Partition.regular("wide");
        QueueSettings settings = QueueSettings.builder().partitionConcurrency(2)
                .partitionConcurrencyOverrides(Map.of(wide, 9)).build();

        assertThat(settings.concurrencyOf(wide)).isEqualTo(9);
        assertThat(settings.concurrencyOf(Partition.regular("other"))).isEqualTo(2);
        assertThat(settings.concurrencyOf(Partition.ordered("o"))).isZero();
        assertThat(settings.hasConcurrencyCaps()).isTrue();
        assertThat(QueueSettings.DEFAULTS.hasConcurrencyCaps()).isFalse();
        assertThat(QueueSettings.DEFAULTS.hasRateLimits()).isFalse();
    }
}
