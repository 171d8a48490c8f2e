package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerNamesTest {
    @Test
    void the_hostname_of_the_environment_names_the_pod_and_the_process_id_and_start_tag_follow() {
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", "orders-worker-7c9d-x2kq"), 1, () -> "ignored", "k3f9"))
                .isEqualTo(ConsumerId.of("orders-worker-7c9d-x2kq-1-k3f9"));
    }

    @Test
    void without_hostname_in_the_environment_the_machines_name_is_used() {
        assertThat(ConsumerNames.of(Map.of(), 4242, () -> "build-box", "a1b2")).isEqualTo(ConsumerId.of("build-box-4242-a1b2"));
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", " "), 7, () -> "build-box", "a1b2")).isEqualTo(ConsumerId.of("build-box-7-a1b2"));
    }

    @Test
    void a_name_is_always_valid_even_from_odd_hosts() {
        assertThat(ConsumerNames.of(Map.of(), 9, () -> "\t\n", "a1b2")).isEqualTo(ConsumerId.of("localhost-9-a1b2"));
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", "h".repeat(300)), 123, () -> "x", "a1b2").value())
                .hasSize(ConsumerId.MAX_LENGTH).endsWith("h-123-a1b2");
    }

    @Test
    void characters_a_consumer_name_may_not_hold_are_left_out_of_the_host_name() {
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", "pod\u202e-\u200b7\u2028\ufeff"), 5, () -> "x", "a1b2"))
                .isEqualTo(ConsumerId.of("pod-7-5-a1b2"));
    }

    @Test
    void a_long_host_name_is_cut_between_characters_never_inside_a_surrogate_pair() {
        String emoji = "\uD83D\uDE00";
        ConsumerId name = ConsumerNames.of(Map.of("HOSTNAME", emoji.repeat(300)), 123, () -> "x", "a1b2");

        assertThat(name.value().codePointCount(0, name.value().length())).isEqualTo(ConsumerId.MAX_LENGTH);
        assertThat(name.value()).endsWith(emoji + "-123-a1b2");
    }

    @Test
    void this_process_gets_its_own_pid_and_start_tag_and_keeps_them() {
        assertThat(ConsumerNames.forThisProcess().value())
                .endsWith("-" + ProcessHandle.current().pid() + "-" + ConsumerNames.startTag());
        assertThat(ConsumerNames.forThisProcess()).isEqualTo(ConsumerNames.forThisProcess());
    }

    @Test
    void a_given_base_gets_the_start_tag_so_a_restart_in_place_is_a_new_consumer() {
        assertThat(ConsumerNames.startUnique("worker-7")).isEqualTo(ConsumerId.of("worker-7-" + ConsumerNames.startTag()));
        assertThatThrownBy(() -> ConsumerNames.startUnique("w".repeat(196))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("consumer").hasMessageContaining("at most 195 characters");
        assertThatThrownBy(() -> ConsumerNames.startUnique("")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("consumer");
    }

    @Test
    void start_tags_are_four_characters_and_spread() {
        Random random = new Random(42);
        Set<String> tags = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String tag = ConsumerNames.tag(random);
            assertThat(tag).matches("[0-9a-z]{4}");
            tags.add(tag);
        }
        assertThat(tags).hasSizeGreaterThan(990);
    }
}
