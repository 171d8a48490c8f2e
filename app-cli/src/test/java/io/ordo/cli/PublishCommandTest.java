package io.ordo.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

class PublishCommandTest {
    private static final String NOTE = "ordo: note: the inmemory backend keeps queues only while this command runs";

    @TempDir
    Path dir;

    @Test
    void one_payload_is_published_with_every_option() {
        CliRun run = CliRun.of("publish", "--queue", "orders", "--partition", "account-42", "--ordered",
                "--id", "deposit-1", "--priority", "5", "--delay", "30s", "{\"cents\": 100}");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly(
                "created    deposit-1  !account-42  priority 5  delay 30s",
                "published 1 task to queue orders: 1 created, 0 duplicate");
        assertThat(run.errLines()).containsExactly(NOTE);
    }

    @Test
    void a_type_and_an_own_attempts_limit_are_published_and_printed() {
        CliRun run = CliRun.of("publish", "--queue", "orders", "--partition", "account-42", "--id", "deposit-1",
                "--type", "Deposit", "--max-attempts", "3", "{\"cents\": 100}");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).containsExactly(
                "created    deposit-1  account-42  type Deposit  max attempts 3",
                "published 1 task to queue orders: 1 created, 0 duplicate");
    }

    @Test
    void a_bad_type_or_attempts_limit_is_bad_input_named_by_its_option() {
        CliRun badType = CliRun.of("publish", "--queue", "q", "--partition", "p", "--type", "a\u202Eb", "{}");
        CliRun zero = CliRun.of("publish", "--queue", "q", "--partition", "p", "--max-attempts", "0", "{}");
        CliRun tooMany = CliRun.of("publish", "--queue", "q", "--partition", "p", "--max-attempts", "1001", "{}");

        assertThat(badType.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(badType.errLines()).singleElement().asString().startsWith("ordo: --type: must not contain format characters");
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(zero.errLines()).containsExactly("ordo: --max-attempts: must be between 1 and 1000, was 0");
        assertThat(tooMany.errLines()).containsExactly("ordo: --max-attempts: must be between 1 and 1000, was 1001");
        assertThat(badType.outLines()).isEmpty();
    }

    @Test
    void a_generated_id_is_printed() {
        CliRun run = CliRun.of("publish", "--queue", "emails", "--partition", "welcome", "\"alice\"");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines().get(0)).matches("created    [0-9a-f-]{36}  welcome");
    }

    @Test
    void a_json_lines_file_is_published_line_by_line_skipping_blank_lines() throws IOException {
        Path file = Files.writeString(dir.resolve("signups.jsonl"), "{\"name\":\"alice\"}\n\n{\"name\":\"bob\"}\n  \n[1,2]\n");

        CliRun run = CliRun.of("publish", "--queue", "emails", "--partition", "welcome", "--file", file.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).hasSize(4).last().isEqualTo("published 3 tasks to queue emails: 3 created, 0 duplicate");
    }

    @Test
    void a_dash_reads_payloads_from_stdin() {
        InputStream original = System.in;
        System.setIn(new ByteArrayInputStream("{\"a\":1}\n{\"a\":2}\n".getBytes(UTF_8)));
        try {
            CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", "-");

            assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
            assertThat(run.outLines()).last().isEqualTo("published 2 tasks to queue q: 2 created, 0 duplicate");
        } finally {
            System.setIn(original);
        }
    }

    @Test
    void a_named_pipe_is_read_once_as_it_arrives() throws Exception {
        Path fifo = dir.resolve("producer.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        java.util.concurrent.CompletableFuture<CliRun> run = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", fifo.toString()));
        Files.writeString(fifo, "{\"a\":1}\n{\"a\":2}\n"); // opens, writes and closes the pipe: it can be read once

        CliRun done = run.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(done.exitCode()).as(done.err()).isEqualTo(ExitCodes.OK);
        assertThat(done.outLines()).last().isEqualTo("published 2 tasks to queue q: 2 created, 0 duplicate");
    }

    @Test
    void a_payload_that_is_not_json_is_bad_input() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "hello");

        assertBadInput(run, "ordo: payload: is not JSON: Unrecognized token 'hello'");
    }

    @Test
    void a_line_that_is_not_json_names_its_line_and_nothing_is_published() throws IOException {
        Path file = Files.writeString(dir.resolve("broken.jsonl"), "{\"ok\":true}\n{\"ok\":\n");

        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", file.toString());

        assertBadInput(run, "ordo: " + file + " line 2: is not JSON: ");
    }

    @Test
    void a_missing_file_is_bad_input() {
        Path missing = dir.resolve("missing.jsonl");

        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", missing.toString());

        assertBadInput(run, "ordo: cannot read " + missing + ": no such file");
    }

    @Test
    void an_empty_file_is_bad_input() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n\n");

        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", empty.toString());

        assertBadInput(run, "ordo: " + empty + ": holds no payload");
    }

    @Test
    void a_payload_and_a_file_together_are_bad_input() throws IOException {
        Path file = Files.writeString(dir.resolve("one.jsonl"), "{}\n");

        CliRun fileFirst = CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", file.toString(), "{}");
        CliRun payloadFirst = CliRun.of("publish", "--queue", "q", "--partition", "p", "{}", "--file", file.toString());

        assertBadInput(fileFirst, "ordo: ");
        assertBadInput(payloadFirst, "ordo: ");
    }

    @Test
    void neither_payload_nor_file_is_bad_input() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p");

        assertBadInput(run, "ordo: Error: Missing required argument");
    }

    @Test
    void an_id_with_a_file_is_bad_input() throws IOException {
        Path file = Files.writeString(dir.resolve("one.jsonl"), "{}\n");

        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--id", "x", "--file", file.toString());

        assertBadInput(run, "ordo: --id names a single task; it cannot be used with --file");
    }

    @Test
    void a_priority_out_of_range_is_bad_input() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--priority", "5000", "{}");

        assertBadInput(run, "ordo: --priority: must be between -1000 and 1000, was 5000");
    }

    @Test
    void a_delay_that_is_not_a_duration_is_bad_input() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--delay", "5 parsecs", "{}");

        assertBadInput(run, "ordo: Invalid value for option '--delay': '5 parsecs' is not a duration");
    }

    @Test
    void a_task_is_published_to_run_at_an_instant() {
        CliRun run = CliRun.of("publish", "--queue", "reports", "--partition", "daily", "--id", "r-1",
                "--at", "2026-12-24T10:00:00+01:00", "{}");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).first().isEqualTo("created    r-1  daily  at 2026-12-24T09:00:00Z");
    }

    @Test
    void an_instant_that_is_not_one_is_bad_input_naming_at() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--at", "tomorrow", "{}");

        assertBadInput(run, "ordo: Invalid value for option '--at': 'tomorrow' is not an instant");
    }

    @Test
    void an_instant_and_a_delay_together_are_bad_input_naming_at() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--delay", "5s",
                "--at", "2026-12-24T09:00:00Z", "{}");

        assertBadInput(run, "ordo: --at: give a delay or an instant to run at, not both");
    }

    @Test
    void a_delay_over_a_year_is_bad_input() {
        CliRun run = CliRun.of("publish", "--queue", "q", "--partition", "p", "--delay", "400d", "{}");

        assertBadInput(run, "ordo: --delay: must be at most 365d, was 400d");
    }

    @Test
    void a_partition_is_written_as_ordo_prints_it() {
        CliRun marked = CliRun.of("publish", "--queue", "q", "--partition", "!account-42", "--id", "a", "{}");
        CliRun markedAndOrdered = CliRun.of("publish", "--queue", "q", "--partition", "!account-42", "--ordered",
                "--id", "b", "{}");

        assertThat(marked.outLines()).first().isEqualTo("created    a  !account-42");
        assertThat(markedAndOrdered.outLines()).first().isEqualTo("created    b  !account-42");
    }

    @Test
    void json_null_is_refused_as_the_library_refuses_a_null_payload() throws IOException {
        Path file = Files.writeString(dir.resolve("nulls.jsonl"), "{}\n null \n");

        assertBadInput(CliRun.of("publish", "--queue", "q", "--partition", "p", "null"), "ordo: payload: is JSON null");
        assertBadInput(CliRun.of("publish", "--queue", "q", "--partition", "p", "--file", file.toString()),
                "ordo: " + file + " line 2: is JSON null");
    }

    @Test
    void non_standard_json_is_refused() {
        assertBadInput(CliRun.of("publish", "--queue", "q", "--partition", "p", "{\"x\":Infinity}"), "ordo: payload: is not JSON: ");
        assertBadInput(CliRun.of("publish", "--queue", "q", "--partition", "p", "{} {}"), "ordo: payload: is not JSON: ");
    }

    private static void assertBadInput(CliRun run, String errorStart) {
        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith(errorStart);
        assertThat(run.out()).isEmpty();
    }
}
