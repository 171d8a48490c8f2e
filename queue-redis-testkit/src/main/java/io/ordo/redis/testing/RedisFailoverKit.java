package io.ordo.redis.testing;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a Redis crash costs, measured with publishers and consumers running: a restart from the
 * append-only file (SIGKILL, started again on the same port and directory, {@code appendfsync everysec}
 * and {@code always}) and Sentinel failovers (SIGKILL of the master, with and without publishes confirmed
 * by {@code WAIT}; a {@code SENTINEL FAILOVER} that demotes a running master), each with the store
 * reconnecting by itself. Every such test prints its figures on one line ({@code [figures] ...});
 * docs/reliability.md quotes them. A backend's test extends this and supplies its factory.
 */
public abstract class RedisFailoverKit {
    private static final int PUBLISHERS = 2;
    private static final int CONSUMERS = 2;
    private static final Duration WARM_UP = Duration.ofSeconds(1);
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(20);
    private static final Duration AFTER_RECOVERY = Duration.ofMillis(700);
    private static final Duration DRAIN = Duration.ofSeconds(3);
    private static final Duration WAIT_TIMEOUT = Duration.ofMillis(500);

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    /** A short name for the figures lines, e.g. {@code lettuce}. */
    protected abstract String backendName();

    /** Short timeouts, so a dead connection is noticed and replaced quickly. */
    private static RedisOptions.Builder options(String uri) {
        return RedisOptions.builder(uri).connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(2))
                .retryBackoff(Duration.ofMillis(20));
    }

    @Test
    void aof_everysec_a_killed_redis_restarted_from_its_file_keeps_every_acknowledged_publish_the_os_received() {
        Restart restart = restartFromAof("everysec");

        // A process crash loses nothing already handed to the OS: Redis writes the AOF before it replies,
        // and fsyncs it every second. Only a host crash could lose the last second (up to two).
        assertThat(restart.lost).as("acknowledged publishes gone after the restart").isLessThanOrEqualTo(
                restart.acknowledgedInLastTwoSeconds);
    }

    @Test
    void aof_always_a_killed_redis_restarted_from_its_file_keeps_every_acknowledged_publish() {
        Restart restart = restartFromAof("always");

        assertThat(restart.lost).as("acknowledged publishes gone after the restart").isZero();
    }

    @Test
    void sentinel_failover_without_wait_both_sides_recover_and_loss_stays_within_the_replication_lag() {
        Failover failover = failover(0, 1);

        assertThat(failover.lost).as("acknowledged publishes gone after the failover")
                .isLessThanOrEqualTo(failover.acknowledgedInLastSecond);
    }

    /** With one replica, publishes wait until the old master is back as a replica (the test restarts it). */
    @Test
    void sentinel_failover_with_wait_loses_no_confirmed_publish() {
        Failover failover = failover(1, 1);

        assertThat(failover.lost).as("confirmed publishes gone after the failover").isZero();
    }

    /** With two replicas, the one not promoted confirms publishes as soon as it follows the new master. */
    @Test
    void sentinel_failover_with_wait_and_two_replicas_loses_no_confirmed_publish_and_publishing_resumes_at_once() {
        Failover failover = failover(1, 2);

        assertThat(failover.lost).as("confirmed publishes gone after the failover").isZero();
    }

    @Test
    void sentinel_failover_by_command_the_store_leaves_the_demoted_master_for_the_new_one() {
        try (SentinelGroup group = SentinelGroup.start();
             RedisTaskStoreFactory factory = createFactory(options(group.uri()).build())) {
            SteadyTraffic traffic = new SteadyTraffic(factory.forQueue(freshQueue()), PUBLISHERS, CONSUMERS);
            long switchMillis;
            long lastSecond;
            try (traffic) {
                warmUp(traffic);
                RedisServer master = group.master();
                long startedAt = System.nanoTime();
                lastSecond = traffic.publishedWithin(Duration.ofSeconds(1), startedAt);
                group.failoverByCommand();
                switchMillis = group.awaitNewMaster(master, startedAt);
                group.awaitReplica(master);
                long demotedAt = System.nanoTime();
                pause(AFTER_RECOVERY);
                // still publishing and consuming, now on the new master: nothing stayed on the demoted one
                assertThat(traffic.publishedSince(demotedAt)).as("publishes acknowledged after the demotion; last"
                        + " failure: %s", traffic.lastFailure).isPositive();
                assertThat(traffic.awaitRecovery(RECOVERY_BOUND)).as("publishers and consumers recovered; last"
                        + " failure: %s", traffic.lastFailure).isTrue();
                traffic.stopPublishing(DRAIN);
            }
            List<String> lost = traffic.lost();
            System.out.printf(Locale.ROOT, "[figures] %s Sentinel failover by command (old master demoted): %d of %d"
                            + " acknowledged publishes lost; new master after %d ms (%d publish failures)%n",
                    backendName(), lost.size(), traffic.confirmed.size(), switchMillis, traffic.publishFailures.get());
            assertThat(traffic.unexpected).as("errors other than 'unavailable'").isEmpty();
            assertThat((long) lost.size()).isLessThanOrEqualTo(lastSecond);
        }
    }

    @Test
    void a_publish_too_few_replicas_confirm_fails_retryably_and_its_task_may_exist_so_publishing_again_is_safe() {
        try (RedisServer lonely = RedisServer.start();
             RedisTaskStoreFactory factory = createFactory(options(lonely.uri())
                     .publishWait(1, Duration.ofMillis(100)).build())) {
            QueueName queue = freshQueue();
            TaskStore store = factory.forQueue(queue);
            NewTask task = NewTask.builder(Partition.of("p"), new byte[] {1}).id("unconfirmed").build();

            assertThatThrownBy(() -> store.publish(List.of(task)))
                    .isInstanceOf(QueueUnavailableException.class)
                    .hasMessageContaining("not confirmed: 0 of 1 replicas")
                    .hasMessageContaining(queue.value());
            assertThat(store.get(TaskId.of("unconfirmed"))).isPresent();
            assertThatThrownBy(() -> store.publish(List.of(task))).isInstanceOf(QueueUnavailableException.class);
            assertThat(store.stats().ready()).as("publishing again made no second task").isEqualTo(1);
        }
    }

    @Test
    void sentinels_that_do_not_answer_fail_retryably_naming_them() {
        String uri = "redis-sentinel://127.0.0.1:" + RedisServer.freePort() + "?master=" + SentinelGroup.MASTER_NAME;
        try (RedisTaskStoreFactory factory = createFactory(options(uri).retries(0).build())) {
            assertThatThrownBy(() -> factory.forQueue(freshQueue()).stats())
                    .isInstanceOf(QueueUnavailableException.class)
                    .hasMessageContaining(SentinelGroup.MASTER_NAME);
        }
    }

    private record Restart(long lost, long acknowledgedInLastTwoSeconds) {
    }

    private Restart restartFromAof(String appendfsync) {
        try (RedisServer redis = RedisServer.startWithAppendOnlyFile(appendfsync);
             RedisTaskStoreFactory factory = createFactory(options(redis.uri()).build())) {
            SteadyTraffic traffic = new SteadyTraffic(factory.forQueue(freshQueue()), PUBLISHERS, CONSUMERS);
            List<String> lost;
            long rate;
            long lastSecond;
            long lastTwoSeconds;
            long downMillis;
            long publishOutage;
            long consumeOutage;
            try (traffic) {
                warmUp(traffic);
                long killedAt = System.nanoTime();
                lastSecond = traffic.publishedWithin(Duration.ofSeconds(1), killedAt);
                lastTwoSeconds = traffic.publishedWithin(Duration.ofSeconds(2), killedAt);
                rate = lastSecond;
                redis.kill();
                redis.startAgain();
                downMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                assertThat(traffic.awaitRecovery(RECOVERY_BOUND)).as("publishers and consumers recovered; last failure: %s", traffic.lastFailure).isTrue();
                publishOutage = traffic.publishOutageMillis(killedAt);
                consumeOutage = traffic.consumeOutageMillis(killedAt);
                pause(AFTER_RECOVERY);
                traffic.stopPublishing(DRAIN);
            }
            lost = traffic.lost();
            System.out.printf(Locale.ROOT, "[figures] %s AOF appendfsync %s, SIGKILL + restart: %d of %d acknowledged"
                            + " publishes lost; redis down %d ms, publishers back after %d ms, consumers after %d ms"
                            + " (%d publish failures); at %d publishes/s a host crash could lose the last 1 s ="
                            + " %d tasks (up to 2 s = %d)%n",
                    backendName(), appendfsync, lost.size(), traffic.confirmed.size(), downMillis, publishOutage,
                    consumeOutage, traffic.publishFailures.get(), rate, lastSecond, lastTwoSeconds);
            assertThat(traffic.unexpected).as("errors other than 'unavailable'").isEmpty();
            return new Restart(lost.size(), lastTwoSeconds);
        }
    }

    private record Failover(long lost, long acknowledgedInLastSecond) {
    }

    private Failover failover(int waitReplicas, int replicas) {
        try (SentinelGroup group = SentinelGroup.start(replicas)) {
            RedisOptions.Builder options = options(group.uri());
            if (waitReplicas > 0) {
                options.publishWait(waitReplicas, WAIT_TIMEOUT);
            }
            try (RedisTaskStoreFactory factory = createFactory(options.build())) {
                SteadyTraffic traffic = new SteadyTraffic(factory.forQueue(freshQueue()), PUBLISHERS, CONSUMERS);
                long failoverMillis;
                long publishOutage;
                long consumeOutage;
                long lastSecond;
                try (traffic) {
                    warmUp(traffic);
                    RedisServer master = group.master();
                    long killedAt = System.nanoTime();
                    lastSecond = traffic.publishedWithin(Duration.ofSeconds(1), killedAt);
                    master.kill();
                    failoverMillis = group.awaitNewMaster(master, killedAt);
                    if (waitReplicas >= replicas) {
                        // the promoted replica has too few of its own until the old master returns as one
                        master.startAgain();
                    }
                    assertThat(traffic.awaitRecovery(RECOVERY_BOUND)).as("publishers and consumers recovered; last failure: %s, sentinels: %s", traffic.lastFailure,
                                    group.describe()).isTrue();
                    publishOutage = traffic.publishOutageMillis(killedAt);
                    consumeOutage = traffic.consumeOutageMillis(killedAt);
                    pause(AFTER_RECOVERY);
                    traffic.stopPublishing(DRAIN);
                }
                List<String> lost = traffic.lost();
                System.out.printf(Locale.ROOT, "[figures] %s Sentinel failover (SIGKILL master), %d replica(s), %s: %d of %d"
                                + " acknowledged publishes lost (%d acknowledged in the last second before the kill);"
                                + " new master after %d ms, publishers back after %d ms, consumers after %d ms"
                                + " (%d publish failures)%s%n",
                        backendName(), replicas, waitReplicas == 0 ? "no WAIT" : "WAIT " + waitReplicas, lost.size(),
                        traffic.confirmed.size(), lastSecond, failoverMillis, publishOutage, consumeOutage,
                        traffic.publishFailures.get(), lost.isEmpty() ? "" : "; lost " + lost.subList(0,
                                Math.min(5, lost.size())));
                assertThat(traffic.unexpected).as("errors other than 'unavailable'").isEmpty();
                assertThat(publishOutage).as("publishers back within the bound").isLessThan(RECOVERY_BOUND.toMillis());
                return new Failover(lost.size(), lastSecond);
            }
        }
    }

    /** Until both sides work (a cold client's first connection can take seconds on a busy machine), then a while. */
    private static void warmUp(SteadyTraffic traffic) {
        assertThat(traffic.awaitFlowing(RECOVERY_BOUND)).as("traffic flowing before the crash; last failure: %s",
                traffic.lastFailure).isTrue();
        pause(WARM_UP);
    }

    private static QueueName freshQueue() {
        return QueueName.of("failover-" + java.util.UUID.randomUUID());
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
