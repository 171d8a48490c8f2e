package io.ordo.system.process;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Start-up failures of a real {@code ordo} process are one line on stderr, logs included, with the documented exit code. */
@Tag("full")
class StartupFailureProcessTest {
    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void an_unreachable_redis_or_a_bad_port_is_one_line_without_a_stack_trace(RedisClient client) {
        record Case(List<String> args, int exitCode, String start) {
        }
        for (Case run : List.of(
                new Case(List.of("work", "--redis", "redis://127.0.0.1:1"), 1, "ordo: "),
                new Case(List.of("stats", "--redis", "redis://127.0.0.1:1"), 1, "ordo: "),
                new Case(List.of("publish", "--partition", "p", "--redis", "redis://127.0.0.1:1", "{}"), 1, "ordo: "),
                new Case(List.of("work", "--redis", "redis://127.0.0.1:70000"), 2, "ordo: --redis the port must be 1 to 65535"),
                new Case(List.of("work", "--metrics-port", "70000"), 2, "ordo: --metrics-port must be 0 (any free port) to 65535"),
                new Case(List.of("work", "--metrics-port", "http"), 2,
                        "ordo: Invalid value for option '--metrics-port': 'http' is not a whole number"))) {
            List<String> args = new ArrayList<>(run.args());
            args.addAll(List.of("--backend", client.backend()));
            try (OrdoProcess ordo = OrdoProcess.start(args.toArray(String[]::new))) {
                assertThat(ordo.awaitExit()).as(String.join(" ", args)).isEqualTo(run.exitCode());
                assertThat(ordo.err()).as(String.join(" ", args)).singleElement().asString().startsWith(run.start());
                assertThat(ordo.out()).as(String.join(" ", args)).isEmpty();
            }
        }
    }
}
