package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task that halts every worker process that runs it ends in the dead letters after the queue's
 * maxAttempts, and its ordered partition carries on behind it, in order (docs/reliability.md).
 */
@Tag("full")
class PoisonTaskTest {
    private static final int MAX_ATTEMPTS = 3;
    private static final RedisClient CLIENT = RedisClient.JEDIS;

    @Test
    void a_task_that_crashes_every_worker_dies_after_max_attempts_and_its_partition_goes_on() {
        String queue = "poison";
        Journal journal = Drill.newJournal(queue);
        List<String> ordered = List.of("acct-1", "acct-2", "acct-poison", "acct-4", "acct-5", "acct-6");
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--max-attempts", Integer.toString(MAX_ATTEMPTS), "--heartbeat-ttl", "2s");
            TaskStore store = stores.forQueue(QueueName.of(queue));
            List<NewTask> tasks = new ArrayList<>();
            for (String id : ordered) {
                tasks.add(Drill.task(Partition.ordered("account-42"), id, id.contains("poison") ? Drill.POISON : null));
            }
            for (int i = 1; i <= 6; i++) {
                tasks.add(Drill.task(Partition.regular("emails"), "mail-" + i, null));
            }
            store.publish(tasks);

            Duration drained;
            int crashes;
            try (Fleet fleet = new Fleet(2, journal, Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", "2", "--prefetch", "4", "--work-time", "20ms"))) {
                long start = System.nanoTime();
                long deadline = start + Duration.ofSeconds(60).toNanos();
                while (store.stats().ready() + store.stats().delayed() + store.stats().inFlight() > 0) {
                    fleet.restartTheCrashed();
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("not drained: " + store.stats() + "\n" + fleet.currentErr());
                    }
                    OrdoProcess.pause(100);
                }
                drained = Duration.ofNanos(System.nanoTime() - start);
                fleet.restartTheCrashed();
                crashes = fleet.crashes();
                fleet.stopGracefully();
            }

            List<Journal.Entry> entries = journal.entries();
            List<Journal.Entry> poisonRuns = entries.stream().filter(e -> e.event().equals("crash")).toList();
            long firstCrash = poisonRuns.get(0).at();
            long lastCrash = poisonRuns.get(poisonRuns.size() - 1).at();
            long nextBegun = entries.stream().filter(e -> e.event().equals("begin") && e.id().equals("acct-4"))
                    .mapToLong(Journal.Entry::at).min().orElseThrow();
            List<DeadLetter> dead = store.deadLetters(0, 10).items();
            long diedAt = dead.isEmpty() ? 0 : dead.get(0).deadAt();
            Drill.figures("poison %s: maxAttempts %d, heartbeat TTL 2 s: %d crashes of the worker running it, dead letter"
                            + " %.1f s after the first crash; its ordered partition stalled %.1f s, then went on; queue drained in %.1f s",
                    CLIENT.backend(), MAX_ATTEMPTS, poisonRuns.size(), (diedAt - firstCrash) / 1000.0,
                    (nextBegun - firstCrash) / 1000.0, Drill.seconds(drained));

            assertThat(crashes).as("processes halted by the poison task").isEqualTo(MAX_ATTEMPTS);
            assertThat(poisonRuns).as("each delivery of the poison task crashed its worker")
                    .hasSize(MAX_ATTEMPTS).allSatisfy(run -> assertThat(run.id()).isEqualTo("acct-poison"))
                    .extracting(Journal.Entry::attempt).containsExactly(1, 2, 3);
            assertThat(dead).singleElement().satisfies(letter -> {
                assertThat(letter.task().id().value()).isEqualTo("acct-poison");
                assertThat(letter.task().attempts()).isEqualTo(MAX_ATTEMPTS);
                assertThat(letter.reason()).startsWith("consumer drill-").endsWith(" stopped heartbeating");
            });
            Map<String, Integer> done = journal.doneCounts();
            assertThat(done.keySet()).as("everything else was processed")
                    .containsExactlyInAnyOrder("acct-1", "acct-2", "acct-4", "acct-5", "acct-6",
                            "mail-1", "mail-2", "mail-3", "mail-4", "mail-5", "mail-6");
            assertThat(nextBegun).as("the partition went on only after the poison task died").isGreaterThan(lastCrash);
            assertThat(journal.orderedViolations(Map.of("!account-42", ordered), Set.of("acct-poison")))
                    .as("the partition kept its order and one holder at a time").isEmpty();
            assertThat(store.stats().ackedTotal()).isEqualTo(11);
        }
    }
}
