package io.ordo.cli;

import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(RedisServerExtension.class)
class StatsCommandTest {
    @Test
    void a_queue_that_never_held_anything_is_said_not_to_exist_instead_of_shown_empty() {
        CliRun run = CliRun.of("stats", "--queue", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly(
                "ordo: note: the inmemory backend keeps queues only while this command runs",
                "ordo: queue orders does not exist on inmemory (nothing was ever published to it; check --queue and"
                        + " --backend/--redis)");
    }

    @Test
    void the_dead_letters_the_caps_dropped_are_shown_with_the_caps(RedisServer redis) {
        String queue = "capped-" + UUID.randomUUID();
        String[] on = {"--backend", "lettuce", "--redis", redis.uri(), "--queue", queue};
        assertThat(run(on, "settings", "--max-attempts", "1", "--dead-letter-max-count", "1").exitCode()).isZero();
        assertThat(run(on, "publish", "--partition", "p", "--id", "t1", "{}").exitCode()).isZero();
        assertThat(run(on, "publish", "--partition", "p", "--id", "t2", "{}").exitCode()).isZero();
        CliRun work = run(on, "work", "--work-time", "0ms", "--failure-rate", "1", "--until-empty");
        assertThat(work.exitCode()).as(work.err()).isZero();

        CliRun stats = run(on, "stats");

        assertThat(stats.exitCode()).as(stats.err()).isZero();
        assertThat(stats.outLines()).contains("  dead                 1", "  dead-lettered total  2",
                "  dead letters dropped 1", "  dead letter cap      1", "  dead letter max age  off");
    }

    private static CliRun run(String[] on, String command, String... args) {
        String[] all = new String[1 + on.length + args.length];
        all[0] = command;
        System.arraycopy(on, 0, all, 1, on.length);
        System.arraycopy(args, 0, all, 1 + on.length, args.length);
        return CliRun.of(all);
    }
}
