package io.ordo.cli;

import io.ordo.ports.QueueUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

class OrdoCliTest {
    @Test
    void an_unknown_option_is_one_line_on_stderr_and_exit_code_2() {
        CliRun run = CliRun.of("stats", "--queue", "orders", "--nope");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: Unknown option: '--nope'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void no_command_is_bad_input() {
        CliRun run = CliRun.of();

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly(
                "ordo: missing command: demo, publish, work, stats, get, cancel, dead, pause, resume, settings, dashboard or doctor (see 'ordo --help')");
    }

    @Test
    void an_unknown_command_is_bad_input() {
        CliRun run = CliRun.of("frobnicate");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: ").contains("frobnicate");
    }

    @Test
    void an_unknown_command_is_bad_input_even_with_help() {
        for (String[] args : new String[][] {{"nosuchcommand", "--help"}, {"dead", "nosuchcommand", "--help"},
                {"stats", "extra", "--help"}}) {
            CliRun run = CliRun.of(args);

            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(run.out()).as(String.join(" ", args)).isEmpty();
            assertThat(run.errLines()).as(String.join(" ", args)).singleElement().asString()
                    .startsWith("ordo: ").contains(args[args.length - 2]);
        }
    }

    @Test
    void a_missing_required_option_is_bad_input() {
        CliRun run = CliRun.of("publish", "payload");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: Missing required option: '--partition=NAME'");
    }

    @Test
    void backend_options_may_stand_before_the_command_name() {
        CliRun run = CliRun.of("--backend", "inmemory", "settings", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(0);
        assertThat(run.outLines()).first().asString().isEqualTo("queue orders on inmemory");
    }

    @Test
    void without_a_queue_name_commands_use_the_default_queue() {
        CliRun run = CliRun.of("settings");

        assertThat(run.exitCode()).isEqualTo(0);
        assertThat(run.outLines()).first().asString().isEqualTo("queue default on inmemory");
    }

    @Test
    void an_unknown_backend_is_bad_input_naming_the_choices() {
        CliRun run = CliRun.of("stats", "--queue", "orders", "--backend", "mongo");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly(
                "ordo: Invalid value for option '--backend': expected one of inmemory, lettuce, jedis but was 'mongo'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis", "LETTUCE"})
    void a_redis_that_does_not_answer_is_one_line_and_exit_code_1(String backend) {
        for (String[] args : new String[][] {
                {"stats", "--queue", "orders", "--backend", backend, "--redis", "redis://127.0.0.1:1"},
                {"publish", "--queue", "orders", "--partition", "p", "--backend", backend, "--redis", "redis://127.0.0.1:1", "{}"},
                {"work", "--queue", "orders", "--backend", backend, "--redis", "redis://127.0.0.1:1"}}) {
            CliRun run = CliRun.of(args);

            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.FAILURE);
            assertThat(run.errLines()).singleElement().asString().startsWith("ordo: Redis at 127.0.0.1:1 is unavailable: ");
            assertThat(run.out()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost:6379", "redis://", "redis://localhost:6379/db"})
    void a_malformed_redis_uri_is_bad_input(String uri) {
        CliRun run = CliRun.of("stats", "--queue", "orders", "--backend", "jedis", "--redis", uri);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: --redis ");
    }

    @Test
    void a_redis_uri_with_the_inmemory_backend_is_bad_input() {
        CliRun run = CliRun.of("stats", "--queue", "orders", "--redis", "redis://localhost:6379");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --redis applies to the lettuce and jedis backends, not to inmemory");
    }

    @Test
    void invalid_input_found_by_the_domain_is_bad_input() {
        CliRun run = CliRun.of("stats", "--queue", "no spaces please");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: --queue: ").contains("'no spaces please'");
    }

    @Test
    void an_infrastructure_failure_is_one_line_and_exit_code_1() {
        QueueUnavailableException failure = new QueueUnavailableException(
                "redis at localhost:6379 did not answer\n  after 3 tries", new IOException("connection refused"));

        CliRun run = CliRun.of(withFailingCommand(failure), "fail");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.errLines()).containsExactly("ordo: redis at localhost:6379 did not answer after 3 tries");
    }

    @Test
    void an_unexpected_error_is_one_line_without_a_stack_trace_and_exit_code_1() {
        CliRun run = CliRun.of(withFailingCommand(new IllegalStateException("bug")), "fail");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.errLines()).containsExactly("ordo: unexpected java.lang.IllegalStateException: bug");
    }

    @Test
    void help_lists_the_commands_and_exits_0() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("Usage: ordo", "demo", "publish", "work", "stats", "get", "cancel", "dead", "pause",
                "resume", "settings", "dashboard");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void every_command_has_help() {
        for (String command : new String[] {"demo", "publish", "work", "stats", "get", "cancel", "pause", "resume", "settings",
                "dashboard", "dead list", "dead redrive", "dead purge"}) {
            List<String> args = new ArrayList<>(List.of(command.split(" ")));
            args.add("--help");
            CliRun run = CliRun.of(args.toArray(String[]::new));

            assertThat(run.exitCode()).as(command).isEqualTo(ExitCodes.OK);
            assertThat(run.out()).as(command).contains("Usage: ordo " + command, "--backend=BACKEND", "Example");
        }
    }

    @Test
    void version_names_ordo() {
        CliRun run = CliRun.of("--version");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).startsWith("ordo ");
    }

    private static CommandLine withFailingCommand(RuntimeException failure) {
        CommandLine commandLine = OrdoCli.commandLine();
        commandLine.addSubcommand("fail", new Failing(failure));
        return commandLine;
    }

    @Command(name = "fail")
    static final class Failing implements Callable<Integer> {
        private final RuntimeException failure;

        Failing(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() {
            throw failure;
        }
    }
}
