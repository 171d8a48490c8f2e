package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Process chaos on consumer groups (docs/groups.md): a queue with two groups, {@code billing} and
 * {@code notify}, each worked by its own fleet of {@code ordo work --group} processes, while a
 * producer publishes into the queue's regular and ordered partitions (no poison tasks: {@link WorkerChaosTest}
 * has those, and here every death is a SIGKILL).
 * A random working process of either fleet is SIGKILLed at random moments and restarted. Afterwards,
 * in each group on its own, every task was processed at least once and acked once, no ordered
 * partition ran out of order or on two live workers at once, duplicates stay within that fleet's
 * deaths × prefetch, and no task is a dead letter; the queue's own view holds nothing
 * (docs/reliability.md). {@link WorkerChaosTest} is the same drill on a queue without groups.
 */
@Tag("full")
class GroupChaosTest {
    private static final RedisClient CLIENT = RedisClient.LETTUCE;
    private static final List<String> GROUPS = List.of("billing", "notify");
    private static final int WORKERS_PER_GROUP = 2;
    private static final int CONCURRENCY = 4;
    private static final int PREFETCH = 8;
    private static final int MAX_ATTEMPTS = 5;
    private static final Duration HEARTBEAT_TTL = Duration.ofSeconds(2);
    private static final Duration CHAOS = Duration.ofSeconds(25);
    private static final long MIN_KILL_GAP_MS = 1000;
    private static final long MAX_KILL_GAP_MS = 3000;
    private static final int REGULAR_PARTITIONS = 8;
    private static final int ORDERED_PARTITIONS = 4;

    /** One group under test: its store, its fleet and the journal that fleet writes. */
    private record Lane(GroupName group, TaskStore store, Journal journal, Fleet fleet) {
    }

    @Test
    void sigkilled_workers_of_two_groups_lose_nothing_in_either_and_keep_each_groups_order() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String queue = "group-chaos";
        QueueName queueName = QueueName.of(queue);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            TaskStore own = stores.forQueue(queueName);
            own.configure(QueueSettings.builder().maxAttempts(MAX_ATTEMPTS).heartbeatTtl(HEARTBEAT_TTL).build());
            for (String group : GROUPS) {
                assertThat(own.createGroup(GroupName.of(group))).as("created " + group).isTrue();
                assertThat(stores.forGroup(queueName, GroupName.of(group)).settings().maxAttempts())
                        .as(group + " starts with the queue's settings").isEqualTo(MAX_ATTEMPTS);
            }
            ChaosProducer producer = new ChaosProducer(own, new Random(seed + 1), REGULAR_PARTITIONS, ORDERED_PARTITIONS, false);
            List<Lane> lanes = new ArrayList<>();
            try {
                for (String group : GROUPS) {
                    Journal journal = Drill.newJournal(queue + "-" + group);
                    Fleet fleet = new Fleet(WORKERS_PER_GROUP, journal, Drill.work(CLIENT, redis.uri(), queue, journal,
                            "--group", group, "--concurrency", Integer.toString(CONCURRENCY),
                            "--prefetch", Integer.toString(PREFETCH), "--work-time", "5ms", "--grace", "5s", "--log-tasks"));
                    lanes.add(new Lane(GroupName.of(group), stores.forGroup(queueName, GroupName.of(group)), journal, fleet));
                }
                producer.start();
                long chaosEnds = System.nanoTime() + CHAOS.toNanos();
                long nextKill = System.nanoTime() + gap(random);
                while (System.nanoTime() < chaosEnds) {
                    lanes.forEach(lane -> lane.fleet().restartTheCrashed());
                    List<Map.Entry<Lane, Integer>> working = new ArrayList<>();
                    for (Lane lane : lanes) {
                        lane.fleet().working().forEach(slot -> working.add(Map.entry(lane, slot)));
                    }
                    if (System.nanoTime() >= nextKill && !working.isEmpty()) {
                        Map.Entry<Lane, Integer> victim = working.get(random.nextInt(working.size()));
                        victim.getKey().fleet().killAndRestart(victim.getValue());
                        nextKill = System.nanoTime() + gap(random);
                    }
                    Thread.sleep(50);
                }
                producer.stop();
                Map<GroupName, Duration> drained = awaitDrainedRestartingCrashed(lanes);
                lanes.forEach(lane -> lane.fleet().stopGracefully());

                check(own, lanes, producer, seed, drained);
            } finally {
                lanes.forEach(lane -> lane.fleet().close());
            }
        }
    }

    private void check(TaskStore own, List<Lane> lanes, ChaosProducer producer, long seed, Map<GroupName, Duration> drained) {
        long orderedTasks = producer.orderedIds.values().stream().mapToInt(List::size).sum();
        List<Runnable> checks = new ArrayList<>();
        for (Lane lane : lanes) {
            String group = lane.group().value();
            QueueStats stats = lane.store().stats();
            List<DeadLetter> dead = lane.store().deadLetters(0, 100).items();
            Map<String, Integer> done = lane.journal().doneCounts();
            List<String> lost = producer.published.stream().filter(id -> !producer.poison().contains(id) && !done.containsKey(id)).toList();
            List<Journal.Entry> entries = lane.journal().entries();
            long poisonCrashes = entries.stream().filter(entry -> entry.event().equals("crash")).count();
            int deaths = lane.fleet().kills() + (int) poisonCrashes;
            int duplicates = done.values().stream().mapToInt(count -> count - 1).sum();
            int maxAttempt = entries.stream().filter(entry -> entry.event().equals("done")).mapToInt(Journal.Entry::attempt)
                    .max().orElse(0);
            List<String> violations = lane.journal().orderedViolations(producer.orderedIds, producer.poison());

            Drill.figures("group chaos %s, group %s: %d workers (concurrency %d, prefetch %d), %d SIGKILLs + %d poison crashes"
                            + " in %.0f s, %d processes started; %d tasks published (%d regular, %d ordered over %d partitions),"
                            + " %d received, %d never processed, %d duplicates (bound %d deaths x %d prefetch = %d),"
                            + " %d dead letters (%d poison tasks planted), %d acked, highest attempt of a processed task %d,"
                            + " %d ordered violations, group empty %.1f s after the chaos, seed %d",
                    CLIENT.backend(), group, WORKERS_PER_GROUP, CONCURRENCY, PREFETCH, lane.fleet().kills(), poisonCrashes,
                    Drill.seconds(CHAOS), lane.fleet().started(), producer.published.size(),
                    producer.published.size() - orderedTasks, orderedTasks, ORDERED_PARTITIONS, stats.publishedTotal(),
                    lost.size(), duplicates, deaths, PREFETCH, deaths * PREFETCH, dead.size(), producer.poison().size(),
                    stats.ackedTotal(), maxAttempt, violations.size(), Drill.seconds(drained.get(lane.group())), seed);

            checks.add(() -> {
                assertThat(stats.publishedTotal()).as(group + ": received every published task")
                        .isEqualTo(producer.published.size());
                assertThat(stats.ready() + stats.delayed() + stats.inFlight()).as(group + ": nothing waits or is in flight")
                        .isZero();

                assertThat(dead).as(group + ": dead letters, only the planted poison tasks (none here)")
                        .extracting(letter -> letter.task().id().value()).containsExactlyInAnyOrderElementsOf(producer.poison());
                for (DeadLetter letter : dead) {
                    assertThat(letter.task().attempts()).as(group + ": " + letter + " died after maxAttempts")
                            .isEqualTo(MAX_ATTEMPTS);
                    assertThat(letter.reason()).as(group + ": " + letter.task().id() + "'s reason")
                            .contains("stopped heartbeating");
                }

                assertThat(lost).as(group + ": tasks never processed").isEmpty();
                assertThat(stats.ackedTotal()).as(group + ": acked once each").isEqualTo(producer.published.size() - producer.poison().size());

                assertThat(violations).as(group + ": ordered partitions, order and exclusivity").isEmpty();
                assertThat(duplicates).as(group + ": tasks processed twice, against deaths × prefetch")
                        .isLessThanOrEqualTo(deaths * PREFETCH);
            });
        }
        checks.forEach(Runnable::run);

        QueueStats ownStats = own.stats();
        assertThat(ownStats.ready() + ownStats.delayed() + ownStats.inFlight() + ownStats.dead())
                .as("the queue's own view holds nothing: " + ownStats).isZero();
        assertThat(ownStats.publishedTotal()).as("the queue's own view received nothing").isZero();
        assertThat(ownStats.ackedTotal()).as("nothing acked in the queue's own view").isZero();
    }

    /** Waits until every group is drained, restarting crashed workers meanwhile; how long each took. */
    private static Map<GroupName, Duration> awaitDrainedRestartingCrashed(List<Lane> lanes) {
        Map<GroupName, Duration> drained = new LinkedHashMap<>();
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(120).toNanos();
        while (drained.size() < lanes.size()) {
            for (Lane lane : lanes) {
                lane.fleet().restartTheCrashed();
                if (drained.containsKey(lane.group())) {
                    continue;
                }
                QueueStats stats = lane.store().stats();
                if (stats.ready() + stats.delayed() + stats.inFlight() == 0) {
                    drained.put(lane.group(), Duration.ofNanos(System.nanoTime() - start));
                } else if (System.nanoTime() > deadline) {
                    throw new AssertionError("group " + lane.group().value() + " did not drain after the chaos: " + stats
                            + "\n" + lane.fleet().currentErr());
                }
            }
            if (drained.size() < lanes.size()) {
                OrdoProcess.pause(100);
            }
        }
        return drained;
    }

    private static long gap(Random random) {
        return Duration.ofMillis(MIN_KILL_GAP_MS + random.nextInt((int) (MAX_KILL_GAP_MS - MIN_KILL_GAP_MS))).toNanos();
    }
}
