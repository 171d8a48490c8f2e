package io.ordo.cli;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SettingsCommandTest {
    /** What {@code settings} prints of a queue with the default settings. */
    private static final List<String> DEFAULTS = List.of(
            "  max attempts         5",
            "  processing timeout   off",
            "  heartbeat ttl        30s",
            "  dedup window         off",
            "  max payload bytes    1048576");

    @Test
    void without_options_it_prints_the_defaults() {
        CliRun run = CliRun.of("settings", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).isEqualTo(lines("queue orders on inmemory", DEFAULTS));
    }

    @Test
    void the_options_given_change_those_settings_and_keep_the_others() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--max-attempts", "3", "--processing-timeout", "5s",
                "--heartbeat-ttl", "2s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly(
                "queue orders on inmemory (changed)",
                "  max attempts         3",
                "  processing timeout   5s",
                "  heartbeat ttl        2s",
                "  dedup window         off",
                "  max payload bytes    1048576");
    }

    @Test
    void a_bad_setting_is_bad_input_naming_it() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--max-attempts", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --max-attempts: must be between 1 and 1000, was 0");
    }

    @Test
    void a_bad_duration_is_named_by_its_option_in_the_options_notation() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--dedup-window", "400d");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --dedup-window: must be at most 365d, was 400d");
    }

    @Test
    void caps_and_rate_limits_are_set_and_printed() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--partition-concurrency", "2",
                "--partition-concurrency-override", "bulk=8", "--queue-concurrency", "50",
                "--queue-rate-limit", "100/1s", "--partition-rate-limit", "5/1m:20");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).isEqualTo(lines("queue orders on inmemory (changed)", DEFAULTS,
                "  partition cap        2",
                "    bulk               8",
                "  queue cap            50",
                "  queue rate limit     100/1s:100",
                "  partition rate limit 5/1m:20"));
    }

    @Test
    void a_bad_rate_limit_is_bad_input_naming_its_option() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--queue-rate-limit", "10/0ms");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --queue-rate-limit: per: must be at least 1 ms, was 0s");
    }

    @Test
    void a_negative_cap_is_bad_input_naming_its_option() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--queue-concurrency", "-1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --queue-concurrency: must be between 0 and 100000, was -1");
    }

    @Test
    void the_caps_on_the_dead_letters_are_set_and_printed() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--dead-letter-max-count", "1000",
                "--dead-letter-max-age", "14d");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).isEqualTo(lines("queue orders on inmemory (changed)", DEFAULTS,
                "  dead letter cap      1000", "  dead letter max age  14d"));
    }

    @Test
    void a_bad_dead_letter_cap_is_bad_input_naming_its_option() {
        CliRun run = CliRun.of("settings", "--queue", "orders", "--dead-letter-max-count", "-1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --dead-letter-max-count: must be between 0 and 10000000, was -1");
        CliRun age = CliRun.of("settings", "--queue", "orders", "--dead-letter-max-age", "500ms");
        assertThat(age.errLines()).containsExactly("ordo: --dead-letter-max-age: must be 0 (off) or at least 1000 ms, was 500 ms");
    }

    private static List<String> lines(String first, List<String> defaults, String... more) {
        List<String> lines = new ArrayList<>();
        lines.add(first);
        lines.addAll(defaults);
        lines.addAll(List.of(more));
        return lines;
    }
}
