package io.ordo.lettuce;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How long each call of an inspect holds the server, and how many calls it makes, against the numbers of partitions and of delayed tasks, for
 * docs/redis-design.md. A measurement, not a test: it runs only with {@code -Dordo.measure=true} and
 * prints its figures.
 * {@code mvn -q -B test -pl adapter-lettuce -Dtest=InspectCostMeasurement -Dordo.measure=true}
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class InspectCostMeasurement {
    private static final int CALLS = 3;

    @Test
    void inspect_cost_against_partitions_and_delayed_tasks() {
        for (int partitions : new int[] {1_000, 100_000, 1_000_000}) {
            measure(partitions + " partitions, one ready task each", partitions, partitions, Duration.ZERO);
        }
        measure("100,000 delayed tasks over 1,000 partitions", 100_000, 1_000, Duration.ofHours(1));
    }

    private static void measure(String label, int tasks, int partitions, Duration delay) {
        try (RedisServer server = RedisServer.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.builder(server.uri())
                     .commandTimeout(Duration.ofMinutes(1)).build())) {
            TaskStore store = factory.forQueue(QueueName.of("measure"));
            List<NewTask> batch = new ArrayList<>(1000);
            for (int i = 0; i < tasks; i++) {
                batch.add(NewTask.builder(Partition.of("p-" + (i % partitions)), new byte[16]).id(TaskId.of("t" + i))
                        .delay(delay).build());
                if (batch.size() == 1000 || i == tasks - 1) {
                    store.publish(batch);
                    batch.clear();
                }
            }
            server.command("CONFIG", "RESETSTAT");
            QueueInspection inspection = null;
            for (int i = 0; i < CALLS; i++) {
                inspection = store.inspect(100);
            }
            System.out.printf("inspect(100), %s: %,.0f us of server time per call, %d calls per inspect"
                            + " (partitions listed %d of %,d; load average %.1f)%n", label, usecPerEvalsha(server),
                    fcalls(server) / CALLS,
                    inspection.busiestPartitions().size(), inspection.totalPartitions(),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static long fcalls(RedisServer server) {
        String info = (String) server.command("INFO", "commandstats");
        return info.lines().filter(line -> line.startsWith("cmdstat_fcall:")).findFirst()
                .map(line -> Long.parseLong(line.replaceAll("^cmdstat_fcall:calls=([0-9]+),.*", "$1")))
                .orElse(0L);
    }

    private static double usecPerEvalsha(RedisServer server) {
        String info = (String) server.command("INFO", "commandstats");
        return info.lines().filter(line -> line.startsWith("cmdstat_fcall:")).findFirst()
                .map(line -> Double.parseDouble(line.replaceAll(".*usec_per_call=([0-9.]+),.*", "$1")))
                .orElse(Double.NaN);
    }
}
