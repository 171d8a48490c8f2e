package io.ordo.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PublishRulesTest {
    private static NewTask task(int payloadBytes) {
        return NewTask.builder(Partition.regular("p"), new byte[payloadBytes]).build();
    }

    @Test
    void an_empty_batch_is_refused() {
        assertThatThrownBy(() -> PublishRules.validate(List.of(), QueueSettings.DEFAULTS))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("tasks:");
    }

    @Test
    void a_batch_of_more_than_ten_thousand_is_refused() {
        List<NewTask> tasks = Collections.nCopies(PublishRules.MAX_BATCH + 1, task(1));
        assertThatThrownBy(() -> PublishRules.validate(tasks, QueueSettings.DEFAULTS))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("at most 10000");
    }

    @Test
    void an_oversized_payload_is_named_by_its_position_in_the_batch() {
        QueueSettings small = QueueSettings.builder().maxPayloadBytes(10).build();
        List<NewTask> tasks = new ArrayList<>(List.of(task(10), task(10), task(11)));

        assertThatThrownBy(() -> PublishRules.validate(tasks, small))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.field()).isEqualTo("tasks[2].payload"));
    }

    @Test
    void a_delay_over_a_year_is_refused_when_the_task_is_built() {
        assertThatThrownBy(() -> NewTask.builder(Partition.regular("p"), new byte[0])
                .delay(Duration.ofDays(366)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("delay:");
    }

    @Test
    void priority_outside_its_range_is_refused() {
        assertThatThrownBy(() -> Priority.of(Priority.MAX + 1))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("priority:");
    }

    @Test
    void queue_names_cannot_contain_hash_tag_characters() {
        assertThatThrownBy(() -> QueueName.of("a{b}"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("queue:");
        assertThat(QueueName.of("orders.v2_eu-1").value()).isEqualTo("orders.v2_eu-1");
    }

    @Test
    void ids_are_one_to_two_hundred_characters() {
        assertThatThrownBy(() -> TaskId.of("")).isInstanceOf(InvalidInputException.class)
                .hasMessage("id: must not be empty");
        assertThatThrownBy(() -> TaskId.of("x".repeat(201))).isInstanceOf(InvalidInputException.class);
        assertThat(TaskId.of("x".repeat(200)).value()).hasSize(200);
    }
}
