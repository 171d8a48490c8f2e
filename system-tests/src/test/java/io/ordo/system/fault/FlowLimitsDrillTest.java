package io.ordo.system.fault;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Caps and rate limits held by the store while {@code ordo work} processes with more handler threads
 * than the caps drain a backlog (docs/reliability.md, "Caps and rate limits under load").
 *
 * <p>Caps: three workers of eight threads each drain 800 tasks of four partitions ({@code p0} has two in five,
 * so it runs alone at the end) under a cap of 2 per partition (3 for {@code p0}) and 6 for the queue, while
 * two of them are SIGKILLed mid-run. The journal
 * gives each task's run, from {@code begin} to {@code done}; a delivery precedes its begin and the ack
 * follows its done, so overlapping runs are tasks the store counted in flight at once. A SIGKILLed
 * worker's unfinished task keeps its slot until the store takes it back: it counts from its begin until
 * the last moment the test, polling the store every 10 ms after the kill, still saw it held by the dead
 * consumer. Measured so, the concurrency is never more than what the store counted (tasks fetched but not
 * begun are not seen), and it must stay within the caps.
 *
 * <p>Rate limits: two workers drain a backlog of more than 30 s of a queue limited to 50/s (burst 5),
 * another one of three partitions limited to 10/s each (burst 2); the tasks begun in the 30 s from the
 * first begin must be within 5% of the rate times 30 s, and work must still be waiting at the end.
 */
@Tag("full")
class FlowLimitsDrillTest {
    private static final RedisClient CLIENT = RedisClient.LETTUCE;

    private static final int PARTITION_CAP = 2;
    private static final String WIDE_PARTITION = "p0";
    private static final int WIDE_PARTITION_CAP = 3;
    private static final int QUEUE_CAP = 6;
    private static final int CAPPED_TASKS = 800;
    private static final int WORKERS = 3;
    private static final int THREADS = 8;
    private static final int KILLS = 2;
    private static final String WORK_TIME = "40ms";
    /** How long a starting worker waits for its first answer: JVMs starting together on a loaded machine are slow. */
    private static final String STARTUP_TIMEOUT = "60s";

    private static final int QUEUE_RATE = 50;
    private static final int QUEUE_BURST = 5;
    private static final int PARTITION_RATE = 10;
    private static final int PARTITION_BURST = 2;
    private static final int RATED_PARTITIONS = 3;
    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final double TOLERANCE = 0.05;

    @Test
    void caps_hold_under_load_and_sigkills() {
        String queue = "caps";
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Journal journal = Drill.newJournal("flow-caps");
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--heartbeat-ttl", "2s", "--max-attempts", "10",
                    "--partition-concurrency", Integer.toString(PARTITION_CAP),
                    "--partition-concurrency-override", WIDE_PARTITION + "=" + WIDE_PARTITION_CAP,
                    "--queue-concurrency", Integer.toString(QUEUE_CAP));
            TaskStore store = stores.forQueue(QueueName.of(queue));
            // p0 gets two tasks in five: once the others have run dry it runs alone, up to its own cap
            List<String> published = publish(store, List.of(WIDE_PARTITION, WIDE_PARTITION, "p1", "p2", "p3"), CAPPED_TASKS);
            Map<String, Long> heldByTheDeadUntil = new HashMap<>();
            long drainedAt;
            long kills;
            try (Fleet fleet = new Fleet(WORKERS, journal, Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", Integer.toString(THREADS), "--prefetch", Integer.toString(THREADS),
                    "--work-time", WORK_TIME, "--grace", "5s", "--log-tasks", "--timeout", STARTUP_TIMEOUT))) {
                long giveUp = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while (fleet.kills() < KILLS && System.nanoTime() < giveUp) {
                    int done = journal.doneCounts().size();
                    List<Integer> working = fleet.working();
                    if (done >= CAPPED_TASKS * (fleet.kills() + 1) / (KILLS + 2) && !working.isEmpty()) {
                        fleet.killAndRestart(working.get(random.nextInt(working.size())));
                        heldByTheDeadUntil.putAll(watchTheDeadHold(store, journal));
                    }
                    OrdoProcess.pause(20);
                }
                Drill.awaitDrained(store, Duration.ofSeconds(60), fleet::currentErr);
                drainedAt = System.currentTimeMillis();
                kills = fleet.kills();
                fleet.stopGracefully();
            }

            QueueStats stats = store.stats();
            Map<String, Integer> done = journal.doneCounts();
            List<Run> runs = runs(journal.entries(), heldByTheDeadUntil);
            Duration drained = Duration.ofMillis(drainedAt - runs.stream().mapToLong(Run::from).min().orElse(drainedAt));
            Map<String, Integer> perPartition = new TreeMap<>();
            runs.stream().collect(Collectors.groupingBy(Run::partition)).forEach((partition, ofPartition) ->
                    perPartition.put(partition, mostAtOnce(ofPartition)));
            int queueWide = mostAtOnce(runs);
            long twice = done.values().stream().filter(count -> count > 1).count();
            Drill.figures("flow caps %s: %d workers x %d threads, %s handlers, caps %d per partition (%s: %d) and %d per queue;"
                            + " %d tasks over %d partitions (%s: 2 in 5) drained %.1f s after the first begin, with %d SIGKILLs"
                            + " (%d unfinished tasks of the killed held on to %.0f ms on average after the kill);"
                            + " most tasks in flight at once: %s, queue %d; %d done twice; seed %d",
                    CLIENT.backend(), WORKERS, THREADS, WORK_TIME, PARTITION_CAP, WIDE_PARTITION, WIDE_PARTITION_CAP, QUEUE_CAP,
                    CAPPED_TASKS, perPartition.size(), WIDE_PARTITION, Drill.seconds(drained), kills, heldByTheDeadUntil.size(),
                    heldAfterTheKill(journal.entries(), heldByTheDeadUntil), perPartition, queueWide, twice, seed);

            assertThat(kills).as("workers SIGKILLed mid-run").isEqualTo(KILLS);
            assertThat(published).as("tasks never done").allSatisfy(id -> assertThat(done).containsKey(id));
            assertThat(stats.ackedTotal()).as("acked once each").isEqualTo(CAPPED_TASKS);
            assertThat(stats.dead() + stats.ready() + stats.delayed() + stats.inFlight()).as("nothing left").isZero();
            perPartition.forEach((partition, most) -> assertThat(most).as("most tasks of " + partition + " in flight at once")
                    .isLessThanOrEqualTo(partition.equals(WIDE_PARTITION) ? WIDE_PARTITION_CAP : PARTITION_CAP));
            assertThat(queueWide).as("most tasks of the queue in flight at once").isLessThanOrEqualTo(QUEUE_CAP);
            assertThat(queueWide).as("the drill keeps the queue at its cap (24 threads against 6 slots)")
                    .isGreaterThanOrEqualTo(QUEUE_CAP - 1);
        }
    }

    @Test
    void rate_limits_hold_within_five_percent_over_thirty_seconds() {
        String queueLimited = "rate-queue";
        String partitionLimited = "rate-partitions";
        Journal queueJournal = Drill.newJournal("flow-rate-queue");
        Journal partitionJournal = Drill.newJournal("flow-rate-partitions");
        long seconds = WINDOW.toSeconds();
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            // configured in process (the caps part shows `ordo settings`): a JVM start less on a loaded machine
            TaskStore queueStore = stores.forQueue(QueueName.of(queueLimited));
            queueStore.configure(QueueSettings.builder()
                    .queueRateLimit(RateLimit.of(QUEUE_RATE, Duration.ofSeconds(1)).withBurst(QUEUE_BURST)).build());
            TaskStore partitionStore = stores.forQueue(QueueName.of(partitionLimited));
            partitionStore.configure(QueueSettings.builder()
                    .partitionRateLimit(RateLimit.of(PARTITION_RATE, Duration.ofSeconds(1)).withBurst(PARTITION_BURST)).build());
            // a third more than the window can take, so the workers never run out of work
            publish(queueStore, codes("q", 6), (int) (QUEUE_RATE * seconds * 4 / 3));
            publish(partitionStore, codes("r", RATED_PARTITIONS), (int) (RATED_PARTITIONS * PARTITION_RATE * seconds * 4 / 3));
            long firstQueueBegin;
            long firstPartitionBegin;
            // two workers share the queue's bucket: while one stalls longer than the burst lasts (100 ms) the other
            // takes the tokens that would be lost, and the limit is shown to hold across workers
            try (Fleet queueFleet = new Fleet(2, queueJournal, rateWork(redis, queueLimited, queueJournal));
                 Fleet partitionFleet = new Fleet(1, partitionJournal, rateWork(redis, partitionLimited, partitionJournal))) {
                firstQueueBegin = firstBegin(queueJournal, queueFleet);
                firstPartitionBegin = firstBegin(partitionJournal, partitionFleet);
                long windowsEnd = Math.max(firstQueueBegin, firstPartitionBegin) + WINDOW.toMillis();
                OrdoProcess.pause(Math.max(0, windowsEnd - System.currentTimeMillis()) + 500);
                queueFleet.stopGracefully();
                partitionFleet.stopGracefully();
            }

            List<Journal.Entry> queueBegins = begunWithin(queueJournal, firstQueueBegin);
            List<Journal.Entry> partitionBegins = begunWithin(partitionJournal, firstPartitionBegin);
            Map<String, Long> perPartition = new TreeMap<>(partitionBegins.stream()
                    .collect(Collectors.groupingBy(Journal.Entry::partition, Collectors.counting())));
            Drill.figures("flow rate limits %s: queue limit %d/s (burst %d): %d tasks begun in %d s = %.2f/s (%+.2f%%);"
                            + " partition limit %d/s (burst %d) over %d partitions: %s tasks begun in"
                            + " %d s = %s/s; backlogs left %d and %d",
                    CLIENT.backend(), QUEUE_RATE, QUEUE_BURST, queueBegins.size(), seconds, queueBegins.size() / (double) seconds,
                    deviation(queueBegins.size(), QUEUE_RATE * seconds), PARTITION_RATE,
                    PARTITION_BURST, RATED_PARTITIONS, perPartition, seconds, perPartition.values().stream()
                            .map(count -> String.format(Locale.ROOT, "%.2f", count / (double) seconds)).toList(),
                    queueStore.stats().ready(), partitionStore.stats().ready());

            assertThat(queueStore.stats().ready()).as("work still waiting: the queue's workers never ran dry").isPositive();
            assertThat(partitionStore.stats().ready()).as("work still waiting: the partitions' worker never ran dry")
                    .isPositive();
            assertWithinTolerance("tasks of the queue begun in " + WINDOW, queueBegins.size(), QUEUE_RATE * seconds);
            assertThat(perPartition).as("partitions that ran").hasSize(RATED_PARTITIONS);
            perPartition.forEach((partition, count) ->
                    assertWithinTolerance("tasks of " + partition + " begun in " + WINDOW, count, PARTITION_RATE * seconds));
        }
    }

    // ---------------------------------------------------------------- caps: the runs and their overlaps

    /** A task's run as the store held it, at least: from its begin to its done or, killed, the last sight of its hold. */
    private record Run(String partition, long from, long to) {
    }

    /**
     * After a SIGKILL: polls the store every 10 ms for the tasks the killed worker had begun and not done, and
     * returns, per task, the wall-clock time taken just before the last read that still showed it in flight in
     * the killed worker's delivery (its attempts unchanged: any new delivery counts one more). A task never seen
     * so is not in the result.
     */
    private static Map<String, Long> watchTheDeadHold(TaskStore store, Journal journal) {
        List<Journal.Entry> entries = journal.entries();
        long victim = entries.stream().filter(entry -> entry.event().equals("killed")).reduce((a, b) -> b).orElseThrow().pid();
        Map<String, Journal.Entry> unfinished = new HashMap<>();
        for (Journal.Entry entry : entries) {
            if (entry.pid() == victim && entry.event().equals("begin")) {
                unfinished.put(entry.id(), entry);
            } else if (entry.pid() == victim && entry.event().equals("done")) {
                unfinished.remove(entry.id());
            }
        }
        Map<String, Long> seenHeld = new HashMap<>();
        long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!unfinished.isEmpty()) {
            for (Journal.Entry begin : List.copyOf(unfinished.values())) {
                long before = System.currentTimeMillis();
                Optional<TaskSnapshot> snapshot = store.get(TaskId.of(begin.id()));
                if (snapshot.isPresent() && snapshot.get().state() == TaskState.IN_FLIGHT
                        && snapshot.get().task().attempts() == begin.attempt()) {
                    seenHeld.put(begin.id(), before);
                } else {
                    unfinished.remove(begin.id());
                }
            }
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("the killed worker's tasks were not taken back within 20 s: " + unfinished.keySet());
            }
            OrdoProcess.pause(10);
        }
        return seenHeld;
    }

    private static List<Run> runs(List<Journal.Entry> entries, Map<String, Long> heldByTheDeadUntil) {
        Map<String, Journal.Entry> begun = new HashMap<>(); // pid + task -> its begin
        List<Run> runs = new ArrayList<>();
        for (Journal.Entry entry : entries) {
            String key = entry.pid() + " " + entry.id();
            switch (entry.event()) {
                case "begin" -> begun.put(key, entry);
                case "done" -> {
                    Journal.Entry begin = begun.remove(key);
                    runs.add(new Run(begin.partition(), begin.at(), entry.at()));
                }
                case "killed" -> { }
                default -> throw new AssertionError("unexpected journal event " + entry);
            }
        }
        // begun and never done: the killed workers' tasks, held until their reclaim
        begun.values().forEach(begin -> runs.add(new Run(begin.partition(), begin.at(),
                Math.max(begin.at(), heldByTheDeadUntil.getOrDefault(begin.id(), begin.at())))));
        return runs;
    }

    /** The most runs that overlap; a run ending in the millisecond another begins does not overlap it. */
    private static int mostAtOnce(List<Run> runs) {
        TreeMap<Long, Integer> changes = new TreeMap<>();
        for (Run run : runs) {
            if (run.to > run.from) {
                changes.merge(run.from, 1, Integer::sum);
                changes.merge(run.to, -1, Integer::sum);
            }
        }
        int now = 0;
        int most = 0;
        for (int change : changes.values()) {
            now += change;
            most = Math.max(most, now);
        }
        return most;
    }

    private static double heldAfterTheKill(List<Journal.Entry> entries, Map<String, Long> heldUntil) {
        List<Long> kills = entries.stream().filter(entry -> entry.event().equals("killed")).map(Journal.Entry::at).toList();
        return heldUntil.values().stream().mapToLong(until -> until - kills.stream().filter(at -> at <= until)
                .max(Long::compare).orElse(until)).average().orElse(0);
    }

    // ---------------------------------------------------------------- rate limits

    private static List<String> rateWork(RedisServer redis, String queue, Journal journal) {
        return Drill.work(CLIENT, redis.uri(), queue, journal, "--concurrency", Integer.toString(THREADS),
                "--work-time", "2ms", "--grace", "2s", "--timeout", STARTUP_TIMEOUT);
    }

    private static long firstBegin(Journal journal, Fleet fleet) {
        Drill.awaitCount(Duration.ofSeconds(60), 1, () -> journal.entries().size());
        return journal.entries().stream().filter(entry -> entry.event().equals("begin")).mapToLong(Journal.Entry::at).min()
                .orElseThrow(() -> new AssertionError("no task begun within 60 s\n" + fleet.currentErr()));
    }

    /** The first attempts begun in the window that opens with the first begin. */
    private static List<Journal.Entry> begunWithin(Journal journal, long from) {
        return journal.entries().stream().filter(entry -> entry.event().equals("begin"))
                .filter(entry -> entry.at() >= from && entry.at() < from + WINDOW.toMillis()).toList();
    }

    private static double deviation(long count, long expected) {
        return (count - expected) * 100.0 / expected;
    }

    private static void assertWithinTolerance(String what, long count, long expected) {
        assertThat(count).as(what + " against " + expected + " ± " + Math.round(TOLERANCE * 100) + "%")
                .isBetween(Math.round(expected * (1 - TOLERANCE)), Math.round(expected * (1 + TOLERANCE)));
    }

    private static List<String> codes(String prefix, int partitions) {
        return IntStream.range(0, partitions).mapToObj(i -> prefix + i).toList();
    }

    /** {@code count} tasks dealt round robin over the regular partitions {@code codes}; their ids. */
    private static List<String> publish(TaskStore store, List<String> codes, int count) {
        List<String> ids = new ArrayList<>();
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String code = codes.get(i % codes.size());
            String id = code + "-" + i;
            batch.add(Drill.task(Partition.regular(code), id, null));
            ids.add(id);
            if (batch.size() == 500 || i == count - 1) {
                store.publish(batch);
                batch.clear();
            }
        }
        return ids;
    }
}
