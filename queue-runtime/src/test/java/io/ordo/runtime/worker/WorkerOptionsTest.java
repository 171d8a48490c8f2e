package io.ordo.runtime.worker;

import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkerOptionsTest {
    @Test
    void the_defaults_fetch_twice_the_concurrency_and_follow_the_queues_heartbeat_ttl() {
        WorkerOptions options = WorkerOptions.create();

        assertThat(options.concurrency()).isEqualTo(WorkerOptions.DEFAULT_CONCURRENCY);
        assertThat(options.prefetch()).isEqualTo(2 * WorkerOptions.DEFAULT_CONCURRENCY);
        assertThat(options.gracePeriod()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.cancelGrace()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.heartbeatInterval()).isEmpty();
        assertThat(options.consumer()).isEqualTo(ConsumerNames.forThisProcess());
        assertThat(WorkerOptions.builder().concurrency(3).build().prefetch()).isEqualTo(6);
    }

    @Test
    void a_prefetch_below_the_concurrency_would_leave_threads_idle_and_is_refused() {
        assertThatThrownBy(() -> WorkerOptions.builder().concurrency(8).prefetch(4).build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("prefetch: must be at least the concurrency 8 (a thread without a task idles), was 4");
    }

    @Test
    void out_of_range_values_name_their_field() {
        assertThatThrownBy(() -> WorkerOptions.builder().concurrency(0).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("concurrency: ");
        assertThatThrownBy(() -> WorkerOptions.builder().gracePeriod(Duration.ofSeconds(-1)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("gracePeriod: ");
        assertThatThrownBy(() -> WorkerOptions.builder().cancelGrace(Duration.ofMillis(-1)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("cancelGrace: ");
        assertThatThrownBy(() -> WorkerOptions.builder().cancelGrace(null).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("cancelGrace: ");
        assertThatThrownBy(() -> WorkerOptions.builder().cancelGrace(Duration.ofHours(2)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("cancelGrace: ");
        assertThatThrownBy(() -> WorkerOptions.builder().heartbeatInterval(Duration.ZERO).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("heartbeatInterval: ");
        assertThatThrownBy(() -> WorkerOptions.builder().prefetch(1001).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("prefetch: ");
    }
}
