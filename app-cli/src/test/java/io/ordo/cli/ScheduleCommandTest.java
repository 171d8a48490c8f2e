package io.ordo.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ordo schedule} on the in-memory backend: what one command can show (queues live while it runs). */
class ScheduleCommandTest {
    @Test
    void a_schedule_is_added() {
        CliRun run = CliRun.of("schedule", "add", "--queue", "reports", "--partition", "daily", "--every", "1h",
                "hourly", "{}");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly("created schedule hourly of queue reports");
    }

    @Test
    void bad_input_is_one_line_naming_the_option_and_exit_2() {
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--cron", "61 * * * *", "s", "{}"),
                "ordo: --cron: is not a five-field cron expression");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "s", "{}"),
                "ordo: --cron: give a cron expression or an interval (every), one of the two");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--every", "1h", "--misfire", "sometimes",
                "s", "{}"), "ordo: --misfire: is skip, once or catch-up:N");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--cron", "0 9 * * *", "--zone", "Mars/Base",
                "s", "{}"), "ordo: Invalid value for option '--zone': 'Mars/Base' is not a time zone");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--every", "1h", "--start",
                "2026-01-02T00:00:00Z", "--end", "2026-01-01T00:00:00Z", "s", "{}"), "ordo: --end: must be after start");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--every", "1h", "--cron", "0 9 * * *",
                "s", "{}"), "ordo: --cron and --every: give one of the two");
        assertBadInput(CliRun.of("schedule", "add", "--partition", "p", "--every", "1h", "s", "not json"),
                "ordo: payload:");
    }

    @Test
    void a_subcommand_is_needed() {
        CliRun run = CliRun.of("schedule");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).first().asString().startsWith("ordo: missing subcommand: add, list or remove");
    }

    private static void assertBadInput(CliRun run, String errorStart) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith(errorStart);
        assertThat(run.out()).isEmpty();
    }
}
