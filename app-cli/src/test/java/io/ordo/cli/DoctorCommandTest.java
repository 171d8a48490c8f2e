package io.ordo.cli;

import io.ordo.redis.RedisAcl;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.SentinelGroup;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ordo doctor} against private redis-servers started with the settings an operator might
 * get wrong: each finding names the problem and its fix, and a failing check exits 1.
 */
class DoctorCommandTest {
    @Test
    void a_redis_that_evicts_and_keeps_nothing_fails_with_the_fixes() {
        try (RedisServer redis = RedisServer.start(DoctorCommandTest::freePort,
                List.of("--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru", "--appendonly", "no", "--save", ""))) {
            CliRun run = CliRun.of("--redis", redis.uri(), "doctor");

            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.FAILURE);
            assertThat(run.out())
                    .contains("FAIL  eviction     maxmemory-policy is allkeys-lru: a full Redis deletes keys")
                    .contains("fix:         CONFIG SET maxmemory-policy noeviction")
                    .contains("warn  persistence  off (no append-only file, no RDB snapshots): a restart loses every task")
                    .contains("fix:         CONFIG SET appendonly yes")
                    .containsPattern("ok    redis version 7\\.")
                    .contains("ok    topology     standalone master at 127.0.0.1:" + redis.port() + ", 0 replicas")
                    .containsPattern("ok    latency      round trip median \\d+\\.\\d\\d ms")
                    .contains("ok    acl          user 'default' may run all " + commandCount() + " commands Ordo sends")
                    .contains("doctor: 1 check failed, 1 warning");
            assertThat(redis.command("EXISTS", "ordo:{ordo-doctor}:probe")).as("the probe key is gone").isEqualTo(0L);
            assertThat(redis.command("DBSIZE")).isEqualTo(0L);
        }
    }

    @Test
    void a_redis_as_ordo_needs_it_passes() {
        try (RedisServer redis = RedisServer.start(DoctorCommandTest::freePort,
                List.of("--maxmemory-policy", "noeviction", "--appendonly", "yes", "--appendfsync", "everysec"))) {
            CliRun run = CliRun.of("--redis", redis.uri(), "doctor");

            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.OK);
            assertThat(run.out()).contains("ok    eviction     noeviction")
                    .contains("ok    persistence  append-only file on, appendfsync everysec")
                    .doesNotContain("FAIL").doesNotContain("\nwarn ").contains("doctor: 0 checks failed, 0 warnings");
        }
    }

    @Test
    void a_user_without_some_commands_or_keys_is_told_which_and_the_password_never_shows() {
        try (RedisServer redis = RedisServer.start()) {
            List<String> rules = new ArrayList<>(List.of("ACL", "SETUSER", "worker", "on", ">s3cret-pass"));
            RedisAcl.rules(false).stream().filter(rule -> !List.of("+zadd", "+hincrby", "+info").contains(rule)).forEach(rules::add);
            redis.command(rules.toArray(String[]::new));
            redis.command("ACL", "SETUSER", "elsewhere", "on", ">s3cret-pass", "resetkeys", "~other:*", "+@all");

            CliRun worker = CliRun.of("--redis", "redis://worker:s3cret-pass@127.0.0.1:" + redis.port(), "doctor");
            assertThat(worker.exitCode()).as(worker.out() + worker.err()).isEqualTo(ExitCodes.FAILURE);
            assertThat(worker.out()).contains("FAIL  acl          user 'worker' may not run info, hincrby, zadd")
                    .contains("fix:         ACL SETUSER worker +info +hincrby +zadd")
                    .contains("warn  server facts this user may not run INFO")
                    .doesNotContain("s3cret-pass");

            CliRun elsewhere = CliRun.of("--redis", "redis://elsewhere:s3cret-pass@127.0.0.1:" + redis.port(), "doctor");
            assertThat(elsewhere.out()).contains("FAIL  acl          user 'elsewhere' may not use the keys ordo:*")
                    .doesNotContain("s3cret-pass");

            CliRun wrong = CliRun.of("--redis", "redis://worker:wrong-pass@127.0.0.1:" + redis.port(), "doctor");
            assertThat(wrong.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(wrong.errLines()).singleElement().asString().startsWith("ordo: Redis at 127.0.0.1:" + redis.port() + " refused the login");
            assertThat(wrong.out() + wrong.err()).doesNotContain("wrong-pass");
        }
    }

    @Test
    void a_cluster_node_behind_a_plain_uri_and_a_cluster_without_slots_fail() {
        try (RedisServer node = RedisServer.start(DoctorCommandTest::freePort, List.of("--cluster-enabled", "yes"))) {
            CliRun plain = CliRun.of("--redis", node.uri(), "doctor");
            assertThat(plain.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(plain.out()).contains("FAIL  topology     127.0.0.1:" + node.port() + " is a cluster node, but the URI is not a cluster URI")
                    .contains("fix:         use redis-cluster://127.0.0.1:" + node.port());

            CliRun cluster = CliRun.of("--redis", "redis-cluster://127.0.0.1:" + node.port(), "doctor");
            assertThat(cluster.out()).contains("FAIL  topology     cluster state fail").contains("0 of 16384 slots assigned");
        }
    }

    @Test
    void a_healthy_cluster_as_the_least_privileged_user_passes() {
        try (RedisCluster cluster = RedisCluster.start()) {
            List<String> rules = new ArrayList<>(List.of("on", ">doctor-secret"));
            rules.addAll(RedisAcl.rules(true));
            cluster.setUser("doctor-user", rules);
            CliRun run = CliRun.of("--redis", cluster.uri("doctor-user", "doctor-secret"), "doctor");

            assertThat(run.out()).as(run.err()).contains("ok    topology     cluster, state ok, 3 masters serving slots")
                    .contains("ok    acl          user 'doctor-user' may run all " + (commandCount() + RedisAcl.CLUSTER_COMMANDS.size()))
                    .doesNotContain("doctor-secret");
            // the doctor tries CONFIG GET and CLUSTER INFO, which Ordo's user may not run; its probes are all allowed
            List<String> refused = cluster.aclDenials().stream().map(entry -> (List<?>) entry)
                    .map(entry -> String.valueOf(entry.get(entry.indexOf("object") + 1))).toList();
            assertThat(refused).isNotEmpty().allMatch(command -> command.equals("config|get") || command.equals("cluster|info"));
        }
    }

    @Test
    void through_sentinel_the_master_and_the_quorum_are_checked() {
        try (SentinelGroup group = SentinelGroup.start()) {
            CliRun run = CliRun.of("--redis", group.uri(), "doctor");

            assertThat(run.out()).as(run.err())
                    .contains("ok    sentinel     master '" + SentinelGroup.MASTER_NAME + "' at 127.0.0.1:" + group.master().port())
                    .contains("3 usable Sentinels")
                    .contains("ok    topology     master (through Sentinel) at 127.0.0.1:" + group.master().port() + ", 1 replica");
            CliRun unknown = CliRun.of("--redis", group.uri().replace("master=" + SentinelGroup.MASTER_NAME, "master=nobody"), "doctor");
            assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(unknown.out()).contains("does not know a master 'nobody'");
        }
    }

    @Test
    void an_unreachable_redis_is_one_line() {
        CliRun run = CliRun.of("--redis", "redis://user:hidden-pass@127.0.0.1:" + freePort(), "doctor");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.errLines()).singleElement().asString().startsWith("ordo: Redis at 127.0.0.1:").contains("is unreachable");
        assertThat(run.out() + run.err()).doesNotContain("hidden-pass");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int commandCount() {
        return RedisAcl.STORE_COMMANDS.size() + RedisAcl.SCRIPT_COMMANDS.size();
    }
}
