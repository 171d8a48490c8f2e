package io.ordo.lettuce;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How long each call of the chunked operations holds the server at a million items (promotion of tasks
 * falling due together, redrive all, purge all, reclaim of a consumer holding them all), for docs/reliability.md: the calls' count and mean server
 * time (INFO commandstats) and the longest (slow log). A measurement, not a test: it runs only with
 * {@code -Dordo.measure=true} ({@code -Dordo.measure.items=N} for another count).
 * {@code mvn -q -B test -pl adapter-lettuce -Dtest=ChunkCostMeasurement -Dordo.measure=true} (one of its
 * methods with {@code -Dtest=ChunkCostMeasurement#reclaim*}).
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class ChunkCostMeasurement {
    private static final int ITEMS = Integer.getInteger("ordo.measure.items", 1_000_000);
    private static final int PARTITIONS = 1_000;
    static final ConsumerId WORKER = ConsumerId.of("measure");
    /** As many calls as the operations below make together at a million items. */
    private static final int CONTROL_CALLS = Integer.getInteger("ordo.measure.control.calls", 150_000);
    /** Loop rounds of the fixed-work script: about 1.3 ms on this machine, the operations' mean. */
    private static final int CONTROL_ROUNDS = Integer.getInteger("ordo.measure.control.rounds", 70_000);

    @Test
    void promotion_redrive_and_purge_at_a_million_items() {
        measure((server, store, clock) -> {
            publish(store, ITEMS, Duration.ofSeconds(1));
            clock.advance(Duration.ofSeconds(1));
            startLog(server);
            List<Lease> first = store.consume(WORKER, 100, Duration.ZERO);
            report(server, "consume making " + ITEMS + " due tasks ready (" + first.size() + " taken)", "consume");
            store.ack(WORKER, first.stream().map(Lease::id).toList());

            failEverything(store);
            startLog(server);
            long redriven = store.redriveAll();
            report(server, "redrive all of " + redriven + " dead letters", "redrive_all");

            failEverything(store);
            startLog(server);
            long purged = store.purgeAllDeadLetters();
            report(server, "purge all of " + purged + " dead letters", "purge_all_dead_letters");
        });
    }

    @Test
    void reclaim_of_a_dead_consumer_holding_a_million_tasks() {
        measure((server, store, clock) -> {
            publish(store, ITEMS, Duration.ZERO);
            holdEverything(store);
            clock.advance(Duration.ofMinutes(5));
            startLog(server);
            var report = store.reclaim();
            report(server, "reclaim of a consumer holding " + report.returned() + " tasks", "reclaim");
        });
    }

    @Test
    void reclaim_of_a_live_consumer_holding_a_million_tasks_with_a_processing_timeout() {
        measure((server, store, clock) -> {
            store.configure(QueueSettings.builder().processingTimeout(Duration.ofSeconds(10))
                    .heartbeatTtl(Duration.ofHours(1)).maxAttempts(10).build());
            publish(store, ITEMS, Duration.ZERO);
            holdEverything(store);
            // first none overdue, then all
            startLog(server);
            var report = store.reclaim();
            report(server, "reclaim looking at " + ITEMS + " live leases, " + report.timedOut() + " overdue", "reclaim");
            clock.advance(Duration.ofSeconds(11));
            startLog(server);
            report = store.reclaim();
            report(server, "reclaim timing out " + report.timedOut() + " tasks of a live consumer", "reclaim");
        });
    }

    /**
     * The machine's own share of the long calls: a script that does a fixed amount of work, as long as the
     * operations' mean call (about 1.3 ms), called as often as they are together at a million items. Its calls
     * over 5 and 10 ms are stalls of the machine (a virtual one here), not of Ordo's scripts; an operation's
     * figures are read against these.
     */
    @Test
    void a_script_of_fixed_work_for_comparison() {
        try (RedisServer server = RedisServer.start()) {
            server.command("CONFIG", "SET", "slowlog-max-len", "100000");
            server.command("FUNCTION", "LOAD", """
                    #!lua name=control
                    redis.register_function('control_spin', function(keys, args)
                        local x = 0
                        for i = 1, tonumber(args[1]) do x = (x + i) % 7919 end
                        return x
                    end)
                    """);
            startLog(server);
            List<List<String>> calls = java.util.Collections.nCopies(1_000, List.of("FCALL", "control_spin", "0", String.valueOf(CONTROL_ROUNDS)));
            for (int i = 0; i < CONTROL_CALLS / 1_000; i++) {
                server.commandsOnOneConnection(calls);
            }
            report(server, "a script of fixed work (" + CONTROL_ROUNDS + " rounds)", "spin");
        }
    }

    private interface Measured {
        void run(RedisServer server, TaskStore store, VirtualClock clock);
    }

    private static void measure(Measured measured) {
        try (RedisServer server = RedisServer.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.builder(server.uri())
                     .commandTimeout(Duration.ofMinutes(1)).build())) {
            VirtualClock clock = new VirtualClock();
            TaskStore store = factory.forQueue(QueueName.of("measure"), clock);
            server.command("CONFIG", "SET", "slowlog-max-len", "100000");
            measured.run(server, store, clock);
        }
    }

    /** Every task consumed and failed until all are dead letters. */
    static void failEverything(TaskStore store) {
        List<Lease> taken;
        while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            store.fail(WORKER, taken.stream().map(Lease::id).toList(), "measured");
        }
    }

    /** One consumer holds every task. */
    static void holdEverything(TaskStore store) {
        while (!store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO).isEmpty()) {
            // taking on
        }
    }

    /** {@code items} tasks with 16-byte payloads over the partitions and three priorities. */
    static void publish(TaskStore store, int items, Duration delay) {
        List<NewTask> batch = new ArrayList<>(10_000);
        for (int i = 0; i < items; i++) {
            batch.add(NewTask.builder(Partition.of("p-" + (i % PARTITIONS)), new byte[16]).id(TaskId.of("t" + i))
                    .priority(i % 3).delay(delay).build());
            if (batch.size() == 10_000 || i == items - 1) {
                store.publish(batch);
                batch.clear();
            }
        }
    }

    /**
     * Logs every call of at least 1 ms (the commands a function calls are logged too, so a lower threshold
     * fills the log with them and slows the server) and resets the counts.
     */
    private static void startLog(RedisServer server) {
        server.command("CONFIG", "SET", "slowlog-log-slower-than", "1000");
        server.command("SLOWLOG", "RESET");
        server.command("CONFIG", "RESETSTAT");
    }

    /** The function calls since startLog: how many and their mean (INFO commandstats), the longest (slow log). */
    private static void report(RedisServer server, String label, String operation) {
        long longest = 0;
        long over5 = 0;
        long over10 = 0;
        for (Object entry : (List<?>) server.command("SLOWLOG", "GET", "-1")) {
            List<?> fields = (List<?>) entry;
            List<?> args = (List<?>) fields.get(3);
            if (args.size() > 1 && text(args.get(0)).equalsIgnoreCase("fcall")
                    && text(args.get(1)).endsWith("_" + operation)) {
                long micros = (Long) fields.get(2);
                longest = Math.max(longest, micros);
                over5 += micros > 5_000 ? 1 : 0;
                over10 += micros > 10_000 ? 1 : 0;
            }
        }
        String stats = ((String) server.command("INFO", "commandstats")).lines()
                .filter(line -> line.startsWith("cmdstat_fcall:")).findFirst().orElseThrow();
        long calls = Long.parseLong(stats.replaceAll("^cmdstat_fcall:calls=([0-9]+),.*", "$1"));
        double mean = Double.parseDouble(stats.replaceAll(".*usec_per_call=([0-9.]+),.*", "$1"));
        System.out.printf("%s: %d calls, longest %s, %d over 5 ms, %d over 10 ms, mean %.2f ms (load average %.1f)%n",
                label, calls, longest == 0 ? "under 1 ms" : String.format("%.2f ms", longest / 1000.0), over5, over10,
                mean / 1000.0,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(value);
    }
}
