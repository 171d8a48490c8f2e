package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings that would make every task die are refused when built (docs/semantics.md, "Queue settings"). */
class QueueSettingsTest {
    @Test
    void a_heartbeat_ttl_below_one_second_is_refused_naming_the_field() {
        for (Duration ttl : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(300), Duration.ofMillis(999)}) {
            assertThatThrownBy(() -> QueueSettings.builder().heartbeatTtl(ttl).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                        assertThat(e.field()).isEqualTo("heartbeatTtl");
                        assertThat(e.problem()).contains("at least 1000 ms").contains("was " + ttl.toMillis() + " ms");
                    });
        }
        assertThat(QueueSettings.builder().heartbeatTtl(Duration.ofSeconds(1)).build().heartbeatTtl())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void a_processing_timeout_is_off_or_at_least_one_second() {
        for (Duration timeout : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(500), Duration.ofMillis(999)}) {
            assertThatThrownBy(() -> QueueSettings.builder().processingTimeout(timeout).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                        assertThat(e.field()).isEqualTo("processingTimeout");
                        assertThat(e.problem()).contains("0 (off) or at least 1000 ms");
                    });
        }
        assertThat(QueueSettings.builder().processingTimeout(Duration.ZERO).build().hasProcessingTimeout()).isFalse();
        assertThat(QueueSettings.builder().processingTimeout(Duration.ofSeconds(1)).build().hasProcessingTimeout())
                .isTrue();
    }

    @Test
    void negative_and_overlong_durations_and_counts_out_of_range_are_refused() {
        assertThatThrownBy(() -> QueueSettings.builder().dedupWindow(Duration.ofMillis(-1)).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("dedupWindow"));
        assertThatThrownBy(() -> QueueSettings.builder().heartbeatTtl(Duration.ofDays(366)).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("heartbeatTtl"));
        assertThatThrownBy(() -> QueueSettings.builder().maxAttempts(0).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("maxAttempts"));
        assertThatThrownBy(() -> QueueSettings.builder().maxPayloadBytes(0).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("maxPayloadBytes"));
    }

    @Test
    void dead_letter_caps_are_off_by_default_and_refused_out_of_range_naming_the_field() {
        assertThat(QueueSettings.DEFAULTS.hasDeadLetterCaps()).isFalse();
        assertThat(QueueSettings.DEFAULTS.deadLetterMaxCount()).isZero();
        assertThat(QueueSettings.DEFAULTS.deadLetterMaxAge()).isZero();
        for (int count : new int[] {-1, QueueSettings.MAX_DEAD_LETTER_COUNT + 1}) {
            assertThatThrownBy(() -> QueueSettings.builder().deadLetterMaxCount(count).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("deadLetterMaxCount"));
        }
        for (Duration age : new Duration[] {Duration.ofMillis(-1), Duration.ofMillis(999), Duration.ofDays(366)}) {
            assertThatThrownBy(() -> QueueSettings.builder().deadLetterMaxAge(age).build())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("deadLetterMaxAge"));
        }
        assertThatThrownBy(() -> QueueSettings.builder().deadLetterMaxAge(null).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("deadLetterMaxAge"));
        QueueSettings capped = QueueSettings.builder().deadLetterMaxCount(QueueSettings.MAX_DEAD_LETTER_COUNT)
                .deadLetterMaxAge(QueueSettings.MAX_DURATION).build();
        assertThat(capped.hasDeadLetterCaps()).isTrue();
        assertThat(capped.toBuilder().build()).isEqualTo(capped);
    }

    @Test
    void the_constructors_without_dead_letter_caps_leave_them_off() {
        QueueSettings plain = new QueueSettings(3, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(5), 1024);
        assertThat(plain.hasDeadLetterCaps()).isFalse();
        QueueSettings limited = new QueueSettings(3, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(5), 1024, 2,
                java.util.Map.of(), 4, RateLimit.OFF, RateLimit.OFF);
        assertThat(limited.hasDeadLetterCaps()).isFalse();
        assertThat(limited.partitionConcurrency()).isEqualTo(2);
    }

    @Test
    void the_oldest_dead_letter_goes_past_the_count_or_once_its_age_reaches_the_cap() {
        QueueSettings count = QueueSettings.builder().deadLetterMaxCount(2).build();
        assertThat(count.dropsOldestDeadLetter(2, 0, Long.MAX_VALUE)).isFalse();
        assertThat(count.dropsOldestDeadLetter(3, 0, 0)).isTrue();
        QueueSettings age = QueueSettings.builder().deadLetterMaxAge(Duration.ofSeconds(10)).build();
        assertThat(age.dropsOldestDeadLetter(1, 1_000, 10_999)).isFalse();
        assertThat(age.dropsOldestDeadLetter(1, 1_000, 11_000)).as("at its age exactly").isTrue();
        assertThat(age.dropsOldestDeadLetter(0, 1_000, 11_000)).as("none to drop").isFalse();
        assertThat(QueueSettings.DEFAULTS.dropsOldestDeadLetter(1_000_000, 0, Long.MAX_VALUE / 2)).isFalse();
    }
}
