package io.ordo.cli;

import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command fails within --timeout against a Redis that accepts connections and answers nothing, and start-up mistakes are one line. */
@Tag("full")
class CommandTimeoutTest {
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void a_frozen_redis_fails_each_command_within_its_timeout(String backend) throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            signal("STOP", redis.pid());
            try {
                for (List<String> command : List.of(List.of("stats"), List.of("get", "t1"), List.of("dead", "list"),
                        List.of("publish", "--partition", "p", "{}"), List.of("settings"), List.of("pause"),
                        List.of("work"))) {
                    List<String> args = new java.util.ArrayList<>(command);
                    args.addAll(List.of("--backend", backend, "--redis", redis.uri(), "--timeout", "1s"));
                    long start = System.nanoTime();

                    CliRun run = CliRun.of(args.toArray(String[]::new));

                    long tookMillis = (System.nanoTime() - start) / 1_000_000;
                    assertThat(run.exitCode()).as(command + ": " + run.err()).isEqualTo(ExitCodes.FAILURE);
                    assertThat(run.errLines()).as(command.toString()).singleElement().asString()
                            .isEqualTo("ordo: " + backend + " at " + redis.uri() + " did not answer within 1s (--timeout)");
                    assertThat(tookMillis).as(command + " gave up within its timeout").isLessThan(3_000);
                }
            } finally {
                signal("CONT", redis.pid());
            }
        }
    }

    @Test
    void a_timeout_must_be_positive() {
        CliRun run = CliRun.of("stats", "--timeout", "0s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --timeout must be above 0 and at most 1h, was 0s");
    }

    @Test
    void a_metrics_port_out_of_range_is_one_line_and_bad_input() {
        CliRun run = CliRun.of("work", "--metrics-port", "99999");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly("ordo: --metrics-port must be 0 (any free port) to 65535, was 99999");
    }

    @Test
    void a_metrics_port_in_use_is_one_line_and_bad_input() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            CliRun run = CliRun.of("work", "--metrics-port", Integer.toString(taken.getLocalPort()));

            assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(run.errLines()).singleElement().asString().startsWith("ordo: --metrics-port " + taken.getLocalPort() + ": ");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://127.0.0.1:99999", "redis://127.0.0.1:0"})
    void a_redis_port_out_of_range_is_one_line_and_bad_input(String uri) {
        CliRun run = CliRun.of("stats", "--backend", "lettuce", "--redis", uri);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: --redis the port must be 1 to 65535, was ");
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }
}
