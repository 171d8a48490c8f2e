package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Process chaos: three {@code ordo work} processes SIGKILLed at random moments and restarted while
 * a producer publishes into regular and ordered partitions, with two poison tasks planted that halt
 * whichever worker runs them. Afterwards every task was processed at least once, no ordered
 * partition ran out of order or on two live workers at once, duplicates stay within kills ×
 * prefetch, and only the poison tasks are dead letters (docs/reliability.md).
 */
@Tag("full")
class WorkerChaosTest {
    private static final int WORKERS = 3;
    private static final int CONCURRENCY = 4;
    private static final int PREFETCH = 8;
    private static final int MAX_ATTEMPTS = 5;
    private static final Duration HEARTBEAT_TTL = Duration.ofSeconds(2);
    private static final Duration CHAOS = Duration.ofSeconds(30);
    private static final long MIN_KILL_GAP_MS = 1000;
    private static final long MAX_KILL_GAP_MS = 3000;
    private static final int REGULAR_PARTITIONS = 8;
    private static final int ORDERED_PARTITIONS = 4;

    @ParameterizedTest
    @EnumSource(RedisClient.class)
    void sigkilled_workers_lose_nothing_and_keep_ordered_partitions_in_order(RedisClient client) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String queue = "chaos-" + client.backend();
        Journal journal = Drill.newJournal(queue);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = client.open(redis.uri())) {
            TaskStore store = stores.forQueue(QueueName.of(queue));
            store.configure(QueueSettings.builder().maxAttempts(MAX_ATTEMPTS).heartbeatTtl(HEARTBEAT_TTL).build());
            ChaosProducer producer = new ChaosProducer(store, new Random(seed + 1), REGULAR_PARTITIONS, ORDERED_PARTITIONS, true);
            try (Fleet fleet = new Fleet(WORKERS, journal, Drill.work(client, redis.uri(), queue, journal,
                    "--concurrency", Integer.toString(CONCURRENCY), "--prefetch", Integer.toString(PREFETCH),
                    "--work-time", "5ms", "--grace", "5s", "--log-tasks"))) {
                producer.start();
                long chaosEnds = System.nanoTime() + CHAOS.toNanos();
                long nextKill = System.nanoTime() + gap(random);
                while (System.nanoTime() < chaosEnds) {
                    fleet.restartTheCrashed();
                    List<Integer> working = fleet.working();
                    if (System.nanoTime() >= nextKill && !working.isEmpty()) {
                        fleet.killAndRestart(working.get(random.nextInt(working.size())));
                        nextKill = System.nanoTime() + gap(random);
                    }
                    Thread.sleep(50);
                }
                producer.stop();
                Duration drained = awaitDrainedRestartingCrashed(store, fleet);
                fleet.stopGracefully();

                check(store, journal, producer, fleet, client, seed, drained);
            }
        }
    }

    private void check(TaskStore store, Journal journal, ChaosProducer producer, Fleet fleet, RedisClient client, long seed,
                       Duration drained) {
        Set<String> poison = producer.poison();
        QueueStats stats = store.stats();
        List<DeadLetter> dead = store.deadLetters(0, 100).items();
        Map<String, Integer> done = journal.doneCounts();
        List<String> lost = producer.published.stream().filter(id -> !poison.contains(id) && !done.containsKey(id)).toList();
        List<Journal.Entry> entries = journal.entries();
        long poisonCrashes = entries.stream().filter(entry -> entry.event().equals("crash")).count();
        int deaths = fleet.kills() + (int) poisonCrashes;
        int duplicates = done.values().stream().mapToInt(count -> count - 1).sum();

        int maxAttempt = entries.stream().filter(entry -> entry.event().equals("done")).mapToInt(Journal.Entry::attempt)
                .max().orElse(0);
        long orderedTasks = producer.orderedIds.values().stream().mapToInt(List::size).sum();
        Drill.figures("chaos %s: %d workers (concurrency %d, prefetch %d), %d SIGKILLs + %d poison crashes in %.0f s,"
                        + " %d processes started; %d tasks published (%d regular, %d ordered over %d partitions), %d never processed,"
                        + " %d duplicates (bound %d deaths x %d prefetch = %d), %d dead letters (%d poison tasks planted),"
                        + " highest attempt of a processed task %d, queue empty %.1f s after the chaos, seed %d",
                client.backend(), WORKERS, CONCURRENCY, PREFETCH, fleet.kills(), poisonCrashes, Drill.seconds(CHAOS),
                fleet.started(), producer.published.size(), producer.published.size() - orderedTasks, orderedTasks,
                ORDERED_PARTITIONS, lost.size(), duplicates, deaths, PREFETCH, deaths * PREFETCH, dead.size(), 2, maxAttempt,
                Drill.seconds(drained), seed);

        assertThat(stats.ready() + stats.delayed() + stats.inFlight()).as("nothing waits or is in flight").isZero();

        assertThat(dead).as("dead letters: only the planted poison tasks")
                .extracting(letter -> letter.task().id().value()).containsExactlyInAnyOrderElementsOf(poison);
        for (DeadLetter letter : dead) {
            assertThat(letter.task().attempts()).as(letter + " died after maxAttempts").isEqualTo(MAX_ATTEMPTS);
            assertThat(letter.reason()).as(letter.task().id() + "'s reason").contains("stopped heartbeating");
        }

        assertThat(lost).as("tasks never processed").isEmpty();
        assertThat(stats.ackedTotal()).as("acked once each").isEqualTo(producer.published.size() - poison.size());

        assertThat(journal.orderedViolations(producer.orderedIds, poison)).as("ordered partitions: order and exclusivity")
                .isEmpty();
        assertThat(duplicates).as("tasks processed twice, against deaths × prefetch").isLessThanOrEqualTo(deaths * PREFETCH);
    }

    private static Duration awaitDrainedRestartingCrashed(TaskStore store, Fleet fleet) {
        AtomicReference<Duration> drained = new AtomicReference<>();
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(120).toNanos();
        while (drained.get() == null) {
            fleet.restartTheCrashed();
            QueueStats stats = store.stats();
            if (stats.ready() + stats.delayed() + stats.inFlight() == 0) {
                drained.set(Duration.ofNanos(System.nanoTime() - start));
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("the queue did not drain after the chaos: " + stats + "\n" + fleet.currentErr());
            } else {
                OrdoProcess.pause(100);
            }
        }
        return drained.get();
    }

    private static long gap(Random random) {
        return Duration.ofMillis(MIN_KILL_GAP_MS + random.nextInt((int) (MAX_KILL_GAP_MS - MIN_KILL_GAP_MS))).toNanos();
    }
}
