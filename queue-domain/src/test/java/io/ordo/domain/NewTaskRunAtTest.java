package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NewTaskRunAtTest {
    private static final Partition P = Partition.regular("p");

    @Test
    void a_task_falls_due_at_its_instant_or_at_once_when_it_has_passed() {
        NewTask task = NewTask.builder(P, new byte[0]).runAt(Instant.ofEpochMilli(10_000)).build();

        assertThat(task.dueAt(4_000)).isEqualTo(10_000);
        assertThat(task.dueAt(12_000)).isEqualTo(12_000);
        assertThat(NewTask.builder(P, new byte[0]).delay(Duration.ofSeconds(2)).build().dueAt(4_000)).isEqualTo(6_000);
    }

    @Test
    void an_instant_is_kept_in_milliseconds_and_survives_added_headers() {
        NewTask task = NewTask.builder(P, new byte[0]).runAt(Instant.parse("2026-12-24T09:00:00.123456Z")).build();

        assertThat(task.runAt()).isEqualTo(Instant.parse("2026-12-24T09:00:00.123Z"));
        assertThat(task.withHeaders(Map.of("a", "b")).runAt()).isEqualTo(task.runAt());
    }

    @Test
    void a_delay_and_an_instant_together_are_refused_naming_run_at() {
        assertThatThrownBy(() -> NewTask.builder(P, new byte[0]).delay(Duration.ofMillis(1))
                .runAt(Instant.EPOCH).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("runAt"));
    }

    @Test
    void an_instant_outside_the_epoch_to_the_year_3000_is_refused() {
        assertThatThrownBy(() -> NewTask.builder(P, new byte[0]).runAt(Instant.parse("3000-01-01T00:00:00Z")).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("runAt"));
        assertThatThrownBy(() -> NewTask.builder(P, new byte[0]).runAt(Instant.parse("1969-12-31T23:59:59Z")).build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("runAt"));
        assertThat(NewTask.builder(P, new byte[0]).runAt(Instant.parse("2999-12-31T23:59:59.999Z")).build().runAt())
                .isNotNull();
    }
}
