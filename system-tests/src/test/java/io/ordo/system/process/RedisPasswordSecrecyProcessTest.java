package io.ordo.system.process;

import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis URI's password never shows in anything {@code ordo} prints, logs included (the whole stdout
 * and stderr of the process): unreachable server, wrong password, malformed URI, from the option or the
 * environment, one-shot commands and {@code work} alike.
 */
@Tag("full")
class RedisPasswordSecrecyProcessTest {
    private static final String SECRET = "Zq7Wx-pass";
    private static RedisServer guarded;

    @BeforeAll
    static void startARedisWithoutTheUser() {
        guarded = RedisServer.start(); // it has no user "app": every AUTH of the URIs below is refused (WRONGPASS)
    }

    @AfterAll
    static void stopIt() {
        guarded.close();
    }

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void no_output_of_any_failure_shows_the_password(RedisClient client) {
        String wrongPassword = "redis://app:" + SECRET + "@127.0.0.1:" + guarded.port();
        List<List<String>> runs = List.of(
                List.of("stats", "--redis", "redis://app:" + SECRET + "@127.0.0.1:1"),
                List.of("stats", "--redis", wrongPassword),
                List.of("publish", "--partition", "p", "--redis", wrongPassword, "{}"),
                List.of("work", "--redis", wrongPassword),
                List.of("stats", "--redis", "redis://app:" + SECRET + "}{@127.0.0.1:1"),
                List.of("stats", "--redis", "redis://app:Zq7/Wx-pass@127.0.0.1:1"),
                List.of("stats", "--redis", "redis://app:" + SECRET + "%zz@127.0.0.1:1"),
                List.of("stats", "--redis", "redis://app:" + SECRET + "@127.0.0.1:99999"));
        for (List<String> run : runs) {
            List<String> args = new ArrayList<>(run);
            args.addAll(List.of("--backend", client.backend()));
            try (OrdoProcess ordo = OrdoProcess.start(args.toArray(String[]::new))) {
                assertThat(ordo.awaitExit()).as(String.join(" ", run)).isIn(1, 2);
                assertThat(ordo.err()).as(String.join(" ", run)).isNotEmpty()
                        .noneMatch(line -> line.contains("Zq7") || line.contains("Wx-pass"));
                assertThat(ordo.out()).noneMatch(line -> line.contains("Zq7") || line.contains("Wx-pass"));
            }
        }
        try (OrdoProcess ordo = OrdoProcess.start(Map.of("ORDO_REDIS_URI", "redis://app:" + SECRET + "}{@h:1"),
                "stats", "--backend", client.backend())) {
            assertThat(ordo.awaitExit()).isEqualTo(2);
            assertThat(ordo.err()).singleElement().asString().startsWith("ordo: --redis ").doesNotContain("Zq7");
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void a_worker_waiting_for_a_redis_that_refuses_its_password_does_not_log_it(RedisClient client) {
        try (OrdoProcess ordo = OrdoProcess.start("work", "--backend", client.backend(), "--metrics-port", "0",
                "--redis", "redis://app:" + SECRET + "@127.0.0.1:" + guarded.port())) {
            ordo.awaitErr("the wait for Redis", line -> line.contains("waiting for it"));
            OrdoProcess.pause(500);
            ordo.terminate();
            ordo.awaitExit();
            assertThat(ordo.err()).noneMatch(line -> line.contains("Zq7") || line.contains("Wx-pass"));
        }
    }
}
