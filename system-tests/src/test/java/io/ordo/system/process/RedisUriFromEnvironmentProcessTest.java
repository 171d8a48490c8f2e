package io.ordo.system.process;

import io.ordo.systemtest.OrdoProcess;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ORDO_REDIS_URI} stands in for {@code --redis}, so a Kubernetes Secret can hand a worker its
 * Redis password without putting it on the command line. Child processes, because the variable is
 * read from the real environment.
 */
@Tag("full")
class RedisUriFromEnvironmentProcessTest {
    private static final String UNREACHABLE_FROM_ENVIRONMENT = "redis://:s3cret-password@127.0.0.1:1";

    @Test
    void the_redis_uri_comes_from_the_environment_when_no_option_gives_it() {
        try (OrdoProcess ordo = OrdoProcess.start(Map.of("ORDO_REDIS_URI", UNREACHABLE_FROM_ENVIRONMENT),
                "stats", "--queue", "orders", "--backend", "lettuce")) {
            assertThat(ordo.awaitExit()).isEqualTo(1);
            assertThat(ordo.err()).singleElement().asString().startsWith("ordo: Redis at 127.0.0.1:1 is unavailable: ");
        }
    }

    @Test
    void an_explicit_redis_option_wins_over_the_environment() {
        try (OrdoProcess ordo = OrdoProcess.start(Map.of("ORDO_REDIS_URI", UNREACHABLE_FROM_ENVIRONMENT),
                "stats", "--queue", "orders", "--backend", "jedis", "--redis", "redis://127.0.0.1:2")) {
            assertThat(ordo.awaitExit()).isEqualTo(1);
            assertThat(ordo.err()).singleElement().asString().startsWith("ordo: Redis at 127.0.0.1:2 is unavailable: ");
        }
    }

    @Test
    void the_inmemory_backend_ignores_the_environment_variable() {
        try (OrdoProcess ordo = OrdoProcess.start(Map.of("ORDO_REDIS_URI", UNREACHABLE_FROM_ENVIRONMENT),
                "settings", "--queue", "orders")) {
            assertThat(ordo.awaitExit()).isZero();
        }
    }

    @Test
    void help_names_the_variable_but_never_shows_its_value() {
        try (OrdoProcess ordo = OrdoProcess.start(Map.of("ORDO_REDIS_URI", UNREACHABLE_FROM_ENVIRONMENT),
                "work", "--help")) {
            assertThat(ordo.awaitExit()).isZero();
            assertThat(String.join("\n", ordo.out())).contains("$ORDO_REDIS_URI").doesNotContain("s3cret");
        }
    }
}
