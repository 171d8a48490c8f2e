package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), 0.0);

    @Test
    void delays_grow_exponentially_up_to_the_maximum() {
        SplittableRandom random = new SplittableRandom(1);

        assertThat(policy.delayAfter(1, random)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delayAfter(2, random)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.delayAfter(3, random)).isEqualTo(Duration.ofSeconds(4));
        assertThat(policy.delayAfter(4, random)).isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.delayAfter(5, random)).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.delayAfter(60, random)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void jitter_only_shortens_the_delay_and_by_at_most_its_fraction() {
        RetryPolicy jittered = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), 0.25);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1000; i++) {
            assertThat(jittered.delayAfter(3, random).toMillis()).isBetween(3_000L, 4_000L);
        }
    }

    @Test
    void the_same_seed_gives_the_same_delays() {
        RetryPolicy jittered = RetryPolicy.DEFAULT;
        assertThat(jittered.delayAfter(3, new SplittableRandom(7)))
                .isEqualTo(jittered.delayAfter(3, new SplittableRandom(7)));
    }

    @Test
    void bad_settings_name_the_field() {
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(1), 0))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("maxDelay:");
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), 0))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("multiplier:");
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(1), 1.5))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("jitter:");
    }
}
