package io.ordo.system.fault;

import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.systemtest.RedisClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedules with no leader under process chaos: three {@code ordo work} processes whose clocks disagree
 * (one 5 s ahead, one 5 s behind, through libfaketime) fire the same every-second schedule for a minute
 * while one of them at a time is SIGKILLed at random and restarted. The server's clock decides the slots.
 * Every slot's task is published once (the queue's own count says so, not only the ids seen) and done,
 * and the misfire policy (catch up) makes up the slots that fell due while the firers were down
 * (docs/semantics.md, "Schedules"; docs/reliability.md). It mostly waits for its minute of slots, so it runs
 * beside the module's other classes (junit-platform.properties).
 */
@Tag("full")
@Execution(ExecutionMode.CONCURRENT)
class ScheduleChaosTest {
    private static final int SLOTS = 60;
    private static final Duration HEARTBEAT_TTL = Duration.ofSeconds(3); // the reaper, which fires, ticks each second
    private static final long MIN_KILL_GAP_MS = 3_000;
    private static final long MAX_KILL_GAP_MS = 7_000;
    /**
     * How long a starting worker waits for its first answer: three JVMs starting together beside the module's
     * other classes on a loaded 2-core machine took more than the default 10 s, and all three gave up.
     */
    private static final String STARTUP_TIMEOUT = "60s";

    @Test
    void sigkilled_firers_publish_every_slot_exactly_once() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String queue = "schedule-chaos";
        Journal journal = Drill.newJournal(queue);
        try (RedisServer redis = RedisServer.start(); TaskStoreFactory stores = RedisClient.LETTUCE.open(redis.uri())) {
            TaskStore store = stores.forQueue(QueueName.of(queue));
            store.configure(QueueSettings.builder().heartbeatTtl(HEARTBEAT_TTL).build());
            long start = (System.currentTimeMillis() / 1000 + 6) * 1000; // once the workers are up, roughly
            List<String> slots = IntStream.range(0, SLOTS)
                    .mapToObj(i -> "tick@" + Instant.ofEpochMilli(start + i * 1000L)).toList();
            store.putSchedule(Schedule.builder("tick", Partition.regular("ticks"), "{}".getBytes(UTF_8))
                    .every(Duration.ofSeconds(1)).misfire(MisfirePolicy.catchUp(SLOTS))
                    .start(Instant.ofEpochMilli(start)).end(Instant.ofEpochMilli(start + SLOTS * 1000L)).build());

            try (Fleet fleet = new Fleet(journal, Drill.work(RedisClient.LETTUCE, redis.uri(), queue, journal,
                    "--work-time", "0ms", "--grace", "5s", "--log-tasks", "--timeout", STARTUP_TIMEOUT), List.of(Map.of(), skewed("+5s"), skewed("-5s")))) {
                long chaosEnds = start + SLOTS * 1000L;
                long nextKill = System.currentTimeMillis() + gap(random);
                while (System.currentTimeMillis() < chaosEnds) {
                    List<Integer> working = fleet.working();
                    if (System.currentTimeMillis() >= nextKill && !working.isEmpty()) {
                        fleet.killAndRestart(working.get(random.nextInt(working.size())));
                        nextKill = System.currentTimeMillis() + gap(random);
                    }
                    Thread.sleep(50);
                }
                Drill.awaitCount(Duration.ofSeconds(60), SLOTS, () -> journal.doneCounts().size());
                Drill.awaitDrained(store, Duration.ofSeconds(30), fleet::currentErr);
                fleet.stopGracefully();

                QueueStats stats = store.stats();
                Map<String, Integer> done = journal.doneCounts();
                Drill.figures("schedule chaos: 3 workers (clocks 0, +5 s, -5 s) firing an every-second schedule for %d s, %d SIGKILLs;"
                                + " %d slots published for %d due, %d done (%d done twice, after a kill before the ack);"
                                + " seed %d", SLOTS, fleet.kills(), stats.publishedTotal(), SLOTS, done.size(),
                        done.values().stream().filter(count -> count > 1).count(), seed);
                assertThat(fleet.kills()).as("workers SIGKILLed during the minute (a worker is killed once it has processed"
                        + " a task); the workers' stderr:%n%s", fleet.currentErr()).isGreaterThanOrEqualTo(4);
                assertThat(stats.publishedTotal()).as("tasks the schedule published: one per slot, whoever fired")
                        .isEqualTo(SLOTS);
                assertThat(done.keySet()).as("every slot's task done, seed " + seed)
                        .containsExactlyInAnyOrderElementsOf(slots);
                assertThat(store.deadLetters(0, 10).items()).as("dead letters").isEmpty();
                assertThat(store.schedules().get(0).lastSlot())
                        .contains(Instant.ofEpochMilli(start + (SLOTS - 1) * 1000L));
            }
        }
    }

    /**
     * The environment that runs a process with its wall clock moved by {@code offset} (libfaketime, Debian's
     * {@code faketime} package, which the README's test command installs); its monotonic clock is left alone.
     */
    private static Map<String, String> skewed(String offset) {
        Path library = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
        assertThat(library).as("libfaketime (apt-get install faketime)").exists();
        return Map.of("LD_PRELOAD", library.toString(), "FAKETIME", offset, "DONT_FAKE_MONOTONIC", "1");
    }

    private static long gap(Random random) {
        return MIN_KILL_GAP_MS + random.nextInt((int) (MAX_KILL_GAP_MS - MIN_KILL_GAP_MS));
    }
}
