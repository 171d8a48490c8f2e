package io.ordo.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SettingsCommandTest {
    @Test
    void without_options_it_prints_the_defaults() {
        CliRun run = CliRun.of("settings", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly(
                "queue orders on inmemory",
                "  max attempts         5",
                "  processing timeout   off",
                "  heartbeat ttl        30000 ms",
                "  dedup window         off",
                "  max payload bytes    1048576");
    }

    @Test
    void the_options_given_change_those_settings_and_keep_the_others() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--max-attempts", "3", "--processing-timeout", "5s",
                "--heartbeat-ttl", "2s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly(
                "queue orders on inmemory (changed)",
                "  max attempts         3",
                "  processing timeout   5000 ms",
                "  heartbeat ttl        2000 ms",
                "  dedup window         off",
                "  max payload bytes    1048576");
    }

    @Test
    void a_bad_setting_is_bad_input_naming_it() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--max-attempts", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: ").contains("maxAttempts");
    }
}
