package io.ordo.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatsCommandTest {
    @Test
    void a_new_queue_has_nothing_in_it() {
        CliRun run = CliRun.of("stats", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).first().isEqualTo("queue orders on inmemory");
        assertThat(run.outLines()).contains(
                "  ready                0",
                "  in flight            0",
                "  dead                 0",
                "  published total      0",
                "  paused               no");
        assertThat(run.errLines()).containsExactly("ordo: note: the inmemory backend keeps queues only while this command runs");
    }
}
