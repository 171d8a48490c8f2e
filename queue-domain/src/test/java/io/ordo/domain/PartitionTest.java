package io.ordo.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionTest {
    @Test
    void an_ordered_partition_is_written_with_a_leading_bang() {
        Partition partition = Partition.ordered("account-42");

        assertThat(partition.code()).isEqualTo("!account-42");
        assertThat(partition.isOrdered()).isTrue();
        assertThat(Partition.of("!account-42")).isEqualTo(partition);
    }

    @Test
    void a_regular_partition_is_not_ordered() {
        assertThat(Partition.regular("emails").isOrdered()).isFalse();
    }

    @Test
    void a_regular_partition_cannot_start_with_a_bang() {
        assertThatThrownBy(() -> Partition.regular("!sneaky"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("partition")
                .hasMessageContaining("Partition.ordered");
    }

    @Test
    void a_code_with_control_characters_is_refused_naming_the_field() {
        assertThatThrownBy(() -> Partition.regular("tab\there"))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.field()).isEqualTo("partition");
                    assertThat(e.problem()).contains("control characters");
                });
    }

    @Test
    void a_code_longer_than_200_characters_is_refused() {
        assertThat(Partition.regular("p".repeat(200)).code()).hasSize(200);
        assertThatThrownBy(() -> Partition.regular("p".repeat(201)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most 200");
        assertThatThrownBy(() -> Partition.ordered("p".repeat(200)))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void non_ascii_codes_count_characters_not_bytes() {
        String name = "é".repeat(200);
        assertThat(Partition.regular(name).code()).isEqualTo(name);
    }

    @Test
    void a_bare_bang_is_not_a_partition() {
        assertThatThrownBy(() -> Partition.of("!")).isInstanceOf(InvalidInputException.class);
    }
}
