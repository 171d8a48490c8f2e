package io.ordo.cli;

import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code stats} and {@code get} tell a queue that does not exist (a typo in --queue or --redis) from an empty one. */
@ExtendWith(RedisServerExtension.class)
class QueueExistenceTest {
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void stats_and_get_say_when_the_queue_does_not_exist(String backend, RedisServer redis) {
        String typo = "ordres-" + UUID.randomUUID();
        String where = backend + " at redis://" + redis.host() + ":" + redis.port();

        CliRun stats = CliRun.of("stats", "--backend", backend, "--redis", redis.uri(), "--queue", typo);
        CliRun get = CliRun.of("get", "--backend", backend, "--redis", redis.uri(), "--queue", typo, "deposit-1");

        String absent = "ordo: queue " + typo + " does not exist on " + where
                + " (nothing was ever published to it; check --queue and --backend/--redis)";
        assertThat(stats.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(stats.out()).isEmpty();
        assertThat(stats.errLines()).containsExactly(absent);
        assertThat(get.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(get.errLines()).containsExactly(absent);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void a_queue_that_is_empty_now_or_only_configured_exists(String backend, RedisServer redis) {
        String drained = "drained-" + UUID.randomUUID();
        String configured = "configured-" + UUID.randomUUID();
        assertThat(CliRun.of("publish", "--backend", backend, "--redis", redis.uri(), "--queue", drained,
                "--partition", "p", "--id", "t1", "{}").exitCode()).isZero();
        assertThat(CliRun.of("cancel", "--backend", backend, "--redis", redis.uri(), "--queue", drained, "t1")
                .exitCode()).isZero();
        assertThat(CliRun.of("settings", "--backend", backend, "--redis", redis.uri(), "--queue", configured,
                "--max-attempts", "3").exitCode()).isZero();

        CliRun drainedStats = CliRun.of("stats", "--backend", backend, "--redis", redis.uri(), "--queue", drained);
        CliRun configuredStats = CliRun.of("stats", "--backend", backend, "--redis", redis.uri(), "--queue", configured);
        CliRun missingTask = CliRun.of("get", "--backend", backend, "--redis", redis.uri(), "--queue", drained, "t1");

        assertThat(drainedStats.exitCode()).as(drainedStats.err()).isZero();
        assertThat(drainedStats.outLines()).contains("  ready                0", "  published total      1");
        assertThat(configuredStats.exitCode()).as(configuredStats.err()).isZero();
        assertThat(missingTask.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missingTask.errLines()).containsExactly("ordo: no task t1 in queue " + drained);
    }
}
