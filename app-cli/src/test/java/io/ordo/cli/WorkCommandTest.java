package io.ordo.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ordo work} on the in-memory backend, where it publishes its own demo tasks. */
class WorkCommandTest {
    @Test
    void demo_tasks_are_worked_off_and_the_command_stops_when_the_queue_is_empty() {
        CliRun run = CliRun.of("work", "--queue", "demo", "--demo-tasks", "30", "--work-time", "1ms", "--until-empty",
                "--log-tasks", "--consumer", "demo-worker");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).filteredOn(line -> line.startsWith("processed")).hasSize(30);
        assertThat(run.outLines()).filteredOn(line -> line.startsWith("started")).hasSize(30);
        assertThat(run.errLines()).contains(
                "ordo: published 30 demo tasks",
                "ordo: stops once the queue is empty; Ctrl-C stops earlier");
        assertThat(run.errLines()).as("the consumer: the name given and a tag of this start")
                .anyMatch(line -> line.matches("ordo: working on queue demo on inmemory as demo-worker-[0-9a-z]{4} "
                        + "\\(concurrency 4, prefetch 8\\)"));
        assertThat(run.errLines()).last().asString().startsWith("ordo: stopped: 30 processed, 0 retried, 0 dead-lettered");
    }

    @Test
    void failing_demo_tasks_are_retried_and_end_as_dead_letters_carrying_the_error() {
        CliRun run = CliRun.of("work", "--queue", "demo", "--demo-tasks", "2", "--work-time", "0ms",
                "--failure-rate", "1", "--retry-delay", "1ms", "--retry-max-delay", "1ms", "--until-empty", "--log-tasks");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).filteredOn(line -> line.startsWith("dead-lettered")).hasSize(2)
                .allSatisfy(line -> assertThat(line).endsWith("attempt 5"));
        assertThat(run.errLines()).last().asString().contains("0 processed, 8 retried, 2 dead-lettered");
    }

    @Test
    void the_journal_gets_a_line_when_a_handler_begins_is_done_or_fails(@TempDir Path directory) throws Exception {
        Path journal = directory.resolve("drill.journal");
        CliRun run = CliRun.of("work", "--queue", "demo", "--demo-tasks", "3", "--work-time", "0ms", "--until-empty",
                "--failure-rate", "1", "--retry-delay", "1ms", "--retry-max-delay", "1ms", "--journal", journal.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        List<String> lines = Files.readAllLines(journal);
        String pid = Long.toString(ProcessHandle.current().pid());
        assertThat(lines).hasSize(30).allSatisfy(line ->
                assertThat(line).matches("(begin|fail) " + pid + " \\S+ \\S+ [1-5] \\d{13}"));
        assertThat(lines).filteredOn(line -> line.startsWith("fail")).hasSize(15);
    }

    @Test
    void empty_drill_markers_are_bad_input() {
        assertThat(CliRun.of("work", "--queue", "q", "--crash-on", "").errLines()).containsExactly("ordo: --crash-on: must not be empty");
        assertThat(CliRun.of("work", "--queue", "q", "--hang-on", "").errLines()).containsExactly("ordo: --hang-on: must not be empty");
    }

    @Test
    void a_prefetch_below_the_concurrency_is_bad_input() {
        CliRun run = CliRun.of("work", "--queue", "q", "--concurrency", "8", "--prefetch", "2");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly(
                "ordo: --prefetch: must be at least the concurrency 8 (a thread without a task idles), was 2");
    }

    @Test
    void a_failure_rate_outside_0_to_1_is_bad_input() {
        CliRun run = CliRun.of("work", "--queue", "q", "--failure-rate", "1.5");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --failure-rate: must be between 0 and 1, was 1.5");
    }
}
