package io.ordo.system.fault;

import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A steady run near the measured capacity, with random handler failures: Redis memory stays flat
 * and, once the queue has drained and the workers have stopped, nothing is left but the queue's
 * permanent keys. {@code -Dordo.soak.duration=10m} runs the steady part that long (docs/reliability.md).
 */
@Tag("full")
class SteadyLoadTest {
    private static final RedisClient CLIENT = RedisClient.LETTUCE;
    private static final Duration DEFAULT_STEADY = Duration.ofSeconds(15);
    private static final int CAPACITY_PROBE = 2000;
    private static final double LOAD_FACTOR = 0.7;
    private static final double FAILURE_RATE = 0.05;
    private static final int REGULAR_PARTITIONS = 16;
    private static final int ORDERED_PARTITIONS = 4;
    /** What a queue keeps for good once it is empty and no consumer is registered: settings and counters. */
    static final Set<String> PERMANENT_KEYS = Set.of("meta");
    /** Allocator noise and client buffers; a leak of even a few bytes per task would exceed it. */
    private static final long MEMORY_SLACK = 1024 * 1024;

    private long published;

    @Test
    void memory_stays_flat_and_nothing_is_left_behind() {
        String queue = "load";
        Duration steady = steadyDuration();
        Journal journal = Drill.newJournal(queue);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = CLIENT.open(redis.uri())) {
            Drill.settings(CLIENT, redis.uri(), queue, "--max-attempts", "10", "--heartbeat-ttl", "5s");
            TaskStore store = stores.forQueue(QueueName.of(queue));
            try (Fleet fleet = new Fleet(2, journal, Drill.work(CLIENT, redis.uri(), queue, journal,
                    "--concurrency", "8", "--prefetch", "16", "--work-time", "1ms", "--failure-rate", Double.toString(FAILURE_RATE),
                    "--retry-delay", "20ms", "--retry-max-delay", "200ms"))) {
                fleet.awaitEach("the worker working", line -> line.startsWith("ordo: working on queue"));

                for (int i = 0; i < CAPACITY_PROBE; i += 500) {
                    publish(store, 500, i);
                }
                Duration probe = Drill.awaitDrained(store, Duration.ofSeconds(90), fleet::currentErr);
                double capacity = CAPACITY_PROBE / (probe.toMillis() / 1000.0);
                OrdoProcess.pause(500);
                long baseline = redis.usedMemory();

                double rate = capacity * LOAD_FACTOR;
                long peak = baseline;
                long maxBacklog = 0;
                long start = System.nanoTime();
                long end = start + steady.toNanos();
                long nextSample = start;
                int tick = 0;
                while (System.nanoTime() < end) {
                    long due = start + tick * 100_000_000L;
                    long wait = (due - System.nanoTime()) / 1_000_000;
                    if (wait > 0) {
                        OrdoProcess.pause(wait);
                    }
                    int count = (int) Math.round(rate / 10);
                    publish(store, Math.max(1, count), CAPACITY_PROBE + tick * 10_000);
                    tick++;
                    if (System.nanoTime() >= nextSample) {
                        peak = Math.max(peak, redis.usedMemory());
                        QueueStats stats = store.stats();
                        maxBacklog = Math.max(maxBacklog, stats.ready() + stats.delayed());
                        nextSample += 1_000_000_000L;
                    }
                }
                Duration drain = Drill.awaitDrained(store, Duration.ofSeconds(90), fleet::currentErr);
                fleet.stopGracefully();
                store.reclaim(); // the stopped workers' registrations expired at shutdown; the reaper clears them
                OrdoProcess.pause(200);
                long after = redis.usedMemory();
                Set<String> keys = scan(redis, "ordo:{" + queue + "}:*");
                QueueStats stats = store.stats();
                long failures = journal.entries().stream().filter(e -> e.event().equals("fail")).count();

                Drill.figures("steady load %s: capacity %.0f tasks/s (2 workers, concurrency 8, 1 ms handlers), ran at %.0f/s"
                                + " for %.0f s with %.0f%% handler failures: %d tasks, %d failed attempts retried, backlog at most %d,"
                                + " drained %.1f s after; used_memory %d KiB at start, %d KiB at peak, %d KiB after (%+d bytes);"
                                + " keys left %s",
                        CLIENT.backend(), capacity, rate, Drill.seconds(steady), FAILURE_RATE * 100, published, failures,
                        maxBacklog, Drill.seconds(drain), baseline / 1024, peak / 1024, after / 1024, after - baseline,
                        shortNames(keys, queue));

                assertThat(stats.ackedTotal()).as("every task acked").isEqualTo(published);
                assertThat(stats.dead()).as("no dead letters: failures were retried").isZero();
                assertThat(stats.inFlight() + stats.ready() + stats.delayed()).isZero();
                assertThat(stats.liveConsumers()).isZero();
                assertThat(shortNames(keys, queue)).as("keys left after the drain").isEqualTo(new TreeSet<>(PERMANENT_KEYS));
                assertThat(after - baseline).as("used_memory after the drain against the start").isLessThan(MEMORY_SLACK);
            }
        }
    }

    private void publish(TaskStore store, int count, int base) {
        List<NewTask> batch = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int n = base + i;
            Partition partition = n % 5 == 0 ? Partition.ordered("o" + n % ORDERED_PARTITIONS)
                    : Partition.regular("r" + n % REGULAR_PARTITIONS);
            batch.add(Drill.task(partition, "t-" + n, null));
        }
        store.publish(batch);
        published += count;
    }

    private static Set<String> scan(RedisServer redis, String pattern) {
        Set<String> keys = new TreeSet<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) redis.command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) reply.get(0);
            for (Object key : (List<?>) reply.get(1)) {
                keys.add((String) key);
            }
        } while (!cursor.equals("0"));
        return keys;
    }

    private static Set<String> shortNames(Set<String> keys, String queue) {
        Set<String> names = new TreeSet<>();
        keys.forEach(key -> names.add(key.substring(("ordo:{" + queue + "}:").length())));
        return names;
    }

    private static Duration steadyDuration() {
        String soak = System.getProperty("ordo.soak.duration", "");
        return soak.isBlank() ? DEFAULT_STEADY : Drill.duration("ordo.soak.duration", soak);
    }
}
