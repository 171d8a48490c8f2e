package io.ordo.lettuce;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Redis memory per queued task and consume cost against the partition count, for docs/redis-design.md.
 * A measurement, not a test: it runs only with {@code -Dordo.measure=true} and prints its figures.
 * {@code mvn -q -B test -pl adapter-lettuce -Dtest=RedisFootprintMeasurement -Dordo.measure=true}
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class RedisFootprintMeasurement {
    private static final int TASKS = Integer.getInteger("ordo.measure.tasks", 1_000_000);
    private static final int BATCH = 1000;
    private static final byte[] PAYLOAD = ("{\"order\":12345678,\"customer\":\"c-0042\",\"amount\":\"199.90\","
            + "\"currency\":\"EUR\",\"items\":[1,2,3]}").getBytes(StandardCharsets.UTF_8);
    private static final ConsumerId WORKER = ConsumerId.of("worker-measure-1");

    @Test
    void memory_per_queued_task() {
        System.out.printf("payload %d bytes, %,d tasks, 1,000 regular partitions%n", payload().length, TASKS);
        report("UUID ids (TaskId.random)", i -> TaskId.random());
        report("short ids (t + number)", i -> TaskId.of("t" + i));
    }

    @Test
    void consume_cost_against_partition_count() {
        int draining = Integer.getInteger("ordo.measure.drain", 100_000);
        for (int partitions : new int[] {10, 10_000, TASKS}) {
            try (RedisServer server = RedisServer.start();
                 RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(QueueName.of("measure"));
                fill(store, TASKS, partitions, i -> TaskId.of("t" + i));
                server.command("CONFIG", "RESETSTAT");
                long start = System.nanoTime();
                int taken = 0;
                while (taken < draining) {
                    taken += store.consume(WORKER, 32, Duration.ZERO).size(); // consume alone: its cost is the figure
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("partitions %,9d: consumed %,d of %,d queued tasks, 32 per call: %,.0f tasks/s,"
                                + " %.1f us of server time per call%n", partitions, taken, TASKS, taken / seconds,
                        usecPerEvalsha(server));
                if (Boolean.getBoolean("ordo.measure.commandstats")) {
                    System.out.println(server.command("INFO", "commandstats"));
                }
            }
        }
    }

    @Test
    void publish_rate_in_batches_of_100() {
        int count = Math.min(TASKS, 200_000);
        try (RedisServer server = RedisServer.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()))) {
            TaskStore store = factory.forQueue(QueueName.of("measure"));
            store.stats();
            server.command("CONFIG", "RESETSTAT");
            long start = System.nanoTime();
            List<NewTask> batch = new ArrayList<>(100);
            for (int i = 0; i < count; i++) {
                batch.add(NewTask.builder(Partition.of("p-" + (i % 1000)), payload()).id(TaskId.of("t" + i)).build());
                if (batch.size() == 100) {
                    store.publish(batch);
                    batch.clear();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("publish by 100 over 1,000 partitions, one caller: %,.0f tasks/s, %.1f us of server time"
                    + " per call%n", count / seconds, usecPerEvalsha(server));
        }
    }

    private static void report(String label, IntFunction<TaskId> ids) {
        try (RedisServer server = RedisServer.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()))) {
            TaskStore store = factory.forQueue(QueueName.of("measure"));
            store.stats(); // scripts and connection in place before the baseline
            long before = server.usedMemory();
            fill(store, TASKS, 1000, ids);
            long after = server.usedMemory();
            System.out.printf("%-28s %6.1f bytes per task (used_memory %,d -> %,d)%n", label,
                    (after - before) / (double) TASKS, before, after);
        }
    }

    private static void fill(TaskStore store, int count, int partitions, IntFunction<TaskId> ids) {
        List<NewTask> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < count; i++) {
            batch.add(NewTask.builder(Partition.of("p-" + (i % partitions)), payload()).id(ids.apply(i)).build());
            if (batch.size() == BATCH || i == count - 1) {
                store.publish(batch);
                batch.clear();
            }
        }
    }

    private static byte[] payload() {
        byte[] payload = new byte[100];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = PAYLOAD[i % PAYLOAD.length];
        }
        return payload;
    }

    /** Server-side microseconds per FCALL since the last CONFIG RESETSTAT, from INFO commandstats. */
    private static double usecPerEvalsha(RedisServer server) {
        String info = (String) server.command("INFO", "commandstats");
        return info.lines().filter(line -> line.startsWith("cmdstat_fcall:")).findFirst()
                .map(line -> Double.parseDouble(line.replaceAll(".*usec_per_call=([0-9.]+),.*", "$1")))
                .orElse(Double.NaN);
    }
}
