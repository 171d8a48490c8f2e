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
}
