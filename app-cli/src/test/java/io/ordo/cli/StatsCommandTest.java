package io.ordo.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatsCommandTest {
    @Test
    void a_queue_that_never_held_anything_is_said_not_to_exist_instead_of_shown_empty() {
        CliRun run = CliRun.of("stats", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly(
                "ordo: note: the inmemory backend keeps queues only while this command runs",
                "ordo: queue orders does not exist on inmemory (nothing was ever published to it; check --queue and"
                        + " --backend/--redis)");
    }
}
