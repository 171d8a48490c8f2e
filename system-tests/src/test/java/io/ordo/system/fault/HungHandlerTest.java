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
 * A handler that never returns, in a worker that stays alive, holds neither its task nor its
 * ordered partition for good: after the queue's processing timeout the worker gives up on it and
 * replaces the stuck thread, the reaper takes the task back, the partition goes on, and after
 * maxAttempts timeouts the task is a dead letter (docs/decisions/hung-handlers.md).
 */
@Tag("full")
class HungHandlerTest {
    private static final RedisClient CLIENT = RedisClient.LETTUCE;
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int MAX_ATTEMPTS = 2;

    @Test
    void a_hung_handler_times_out_its_partition_goes_on_and_the_one_worker_keeps_working() {
        String queue = "hung";
        Journal journal = Drill.newJournal(queue);
        List<String> ordered = List.of("acct-1", "acct-hung", "acct-3", "acct-4");
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--processing-timeout", TIMEOUT.toMillis() + "ms",
                    "--max-attempts", Integer.toString(MAX_ATTEMPTS), "--heartbeat-ttl", "3s");
            TaskStore store = stores.forQueue(QueueName.of(queue));
            List<NewTask> tasks = new ArrayList<>();
            for (String id : ordered) {
                tasks.add(Drill.task(Partition.ordered("account-42"), id, id.contains("hung") ? Drill.HANG : null));
            }
            for (int i = 1; i <= 6; i++) {
                tasks.add(Drill.task(Partition.regular("emails"), "mail-" + i, null));
            }
            store.publish(tasks);

            // one worker with two threads: without giving up on hung handlers it would be stuck after two deliveries
            try (OrdoProcess worker = OrdoProcess.start(Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", "2", "--prefetch", "2", "--work-time", "20ms", "--grace", "1s", "--log-tasks")
                    .toArray(String[]::new))) {
                Duration drained = Drill.awaitDrained(store, Duration.ofSeconds(40), () -> String.join("\n", worker.err()));
                assertThat(worker.isAlive()).as("the worker lived through it").isTrue();
                List<String> more = List.of("late-1", "late-2", "late-3");
                for (String id : more) {
                    store.publish(List.of(Drill.task(Partition.regular("late"), id, null)));
                }
                Drill.awaitDrained(store, Duration.ofSeconds(20), () -> String.join("\n", worker.err()));

                List<Journal.Entry> entries = journal.entries();
                List<Journal.Entry> hungRuns = entries.stream().filter(e -> e.event().equals("begin") && e.id().equals("acct-hung")).toList();
                long nextBegun = entries.stream().filter(e -> e.event().equals("begin") && e.id().equals("acct-3"))
                        .mapToLong(Journal.Entry::at).min().orElse(0);
                List<DeadLetter> dead = store.deadLetters(0, 10).items();
                // the worker gives up on its own clock, from when it received the task: a little after the server's
                // reaper (which may already have dead-lettered the last run) — wait for it, bounded
                long gaveUp = Drill.awaitCount(Duration.ofSeconds(10), MAX_ATTEMPTS,
                        () -> worker.err().stream().filter(line -> line.contains("gave up on it")).count());
                Drill.figures("hung handler %s: processing timeout %d ms, maxAttempts %d: %d runs of it, each given up"
                                + " (thread replaced) by the one worker, dead letter %.1f s after it first began; its ordered"
                                + " partition stalled %.1f s; queue drained in %.1f s; %d tasks done afterwards on the same worker",
                        CLIENT.backend(), TIMEOUT.toMillis(), MAX_ATTEMPTS, hungRuns.size(),
                        dead.isEmpty() ? -1.0 : (dead.get(0).deadAt() - hungRuns.get(0).at()) / 1000.0,
                        (nextBegun - hungRuns.get(0).at()) / 1000.0, Drill.seconds(drained), more.size());

                assertThat(hungRuns).extracting(Journal.Entry::attempt).containsExactly(1, 2);
                assertThat(gaveUp).as("the worker gave up on each hung run; its log:\n%s", String.join("\n", worker.err()))
                        .isEqualTo(MAX_ATTEMPTS);
                assertThat(dead).singleElement().satisfies(letter -> {
                    assertThat(letter.task().id().value()).isEqualTo("acct-hung");
                    assertThat(letter.reason()).isEqualTo("processing timed out after " + TIMEOUT.toMillis() + " ms");
                });
                assertThat(journal.doneCounts().keySet()).containsExactlyInAnyOrder("acct-1", "acct-3", "acct-4",
                        "mail-1", "mail-2", "mail-3", "mail-4", "mail-5", "mail-6", "late-1", "late-2", "late-3");
                assertThat(nextBegun).as("acct-3 waited for the hung task to be given up for good")
                        .isGreaterThan(hungRuns.get(1).at());
                assertThat(journal.orderedViolations(Map.of("!account-42", ordered), Set.of("acct-hung")))
                        .as("the partition kept its order").isEmpty();
                assertThat(worker.out()).as("the hung runs left the worker as timed out, never acked")
                        .filteredOn(line -> line.contains("acct-hung") && !line.startsWith("started"))
                        .allMatch(line -> line.startsWith("timed-out"));

                worker.terminate();
                assertThat(worker.awaitExit()).as("SIGTERM still stops it, stuck threads and all").isEqualTo(143);
            }
        }
    }
}
