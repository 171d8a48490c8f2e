package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConsumerNamesTest {
    @Test
    void the_hostname_of_the_environment_names_the_pod_and_the_process_id_follows() {
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", "orders-worker-7c9d-x2kq"), 1, () -> "ignored"))
                .isEqualTo(ConsumerId.of("orders-worker-7c9d-x2kq-1"));
    }

    @Test
    void without_hostname_in_the_environment_the_machines_name_is_used() {
        assertThat(ConsumerNames.of(Map.of(), 4242, () -> "build-box")).isEqualTo(ConsumerId.of("build-box-4242"));
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", " "), 7, () -> "build-box")).isEqualTo(ConsumerId.of("build-box-7"));
    }

    @Test
    void a_name_is_always_valid_even_from_odd_hosts() {
        assertThat(ConsumerNames.of(Map.of(), 9, () -> "\t\n")).isEqualTo(ConsumerId.of("localhost-9"));
        assertThat(ConsumerNames.of(Map.of("HOSTNAME", "h".repeat(300)), 123, () -> "x").value())
                .hasSize(ConsumerId.MAX_LENGTH).endsWith("h-123");
    }

    @Test
    void this_process_gets_its_own_pid() {
        assertThat(ConsumerNames.forThisProcess().value()).endsWith("-" + ProcessHandle.current().pid());
    }
}
