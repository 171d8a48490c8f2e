package io.ordo.lettuce;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.redis.testing.RedisCluster;
import io.ordo.redis.testing.RedisServer;
import io.ordo.sharding.ShardedTaskStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of one queue against its number of shards on a private three-master cluster, for
 * docs/scaling.md. A measurement, not a test: it runs only with {@code -Dordo.measure=true} and prints
 * a Markdown table.
 * {@code mvn -q -B test -pl adapter-lettuce -Dtest=ShardedThroughputMeasurement -Dordo.measure=true}
 *
 * <p>Each row: an empty cluster; publish {@code ordo.measure.tasks} tasks (100-byte payloads, 1,000
 * regular partitions) in batches of 100 from {@code ordo.measure.publishers} threads; then drain them with
 * {@code ordo.measure.consumers} threads sharing one store (consume up to 32, ack them). The queue is
 * {@code orders}: its shards {@code {orders#0}}..{@code {orders#2}} hash to three different masters.
 * Figures are medians of {@code ordo.measure.repeats} runs. Besides throughput on this machine, each row
 * gives the Redis CPU time of the drain ({@code INFO cpu} of each master's main thread, where scripts
 * run): in all, and on the busiest master. A master runs scripts on one thread, so the busiest master's
 * time per task bounds the drain rate of a cluster whose masters each have a core of their own.
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class ShardedThroughputMeasurement {
    private static final int TASKS = Integer.getInteger("ordo.measure.tasks", 100_000);
    private static final int PUBLISHERS = Integer.getInteger("ordo.measure.publishers", 4);
    private static final int CONSUMERS = Integer.getInteger("ordo.measure.consumers", 8);
    private static final int REPEATS = Integer.getInteger("ordo.measure.repeats", 3);
    private static final int PARTITIONS = 1000;
    private static final int BATCH = 100;
    private static final int PREFETCH = 32;
    private static final QueueName QUEUE = QueueName.of("orders");
    private static final byte[] PAYLOAD = ("{\"order\":12345678,\"customer\":\"c-0042\",\"amount\":\"199.90\","
            + "\"currency\":\"EUR\",\"items\":[1,2,3],\"note\":\"x\"}").getBytes(StandardCharsets.UTF_8);

    @Test
    void throughput_against_shards_on_a_three_master_cluster() throws Exception {
        System.out.printf("%,d tasks, %d publishers (batches of %d), %d consumers (prefetch %d), %d partitions, "
                + "%d-byte payloads, %d cores%n", TASKS, PUBLISHERS, BATCH, CONSUMERS, PREFETCH, PARTITIONS,
                PAYLOAD.length, Runtime.getRuntime().availableProcessors());
        System.out.println("| queue | masters used | publish tasks/s | consume+ack tasks/s | Redis CPU per 1,000 tasks"
                + " drained: all masters | busiest master | drain bound, a core per master: tasks/s |");
        System.out.println("|---|---|---|---|---|---|---|");
        try (RedisCluster cluster = RedisCluster.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(cluster.uri()))) {
            measure(cluster, "plain queue (no sharding)", factory.forQueue(QUEUE));
            for (int shards : new int[] {1, 2, 3, 6, 12}) {
                measure(cluster, shards + (shards == 1 ? " shard" : " shards"),
                        ShardedTaskStore.create(QUEUE, shards, factory::forShard));
            }
        }
    }

    private static void measure(RedisCluster cluster, String name, TaskStore store) throws Exception {
        List<Double> publishRates = new ArrayList<>();
        List<Double> consumeRates = new ArrayList<>();
        List<Double> cpuPerThousand = new ArrayList<>();
        List<Double> busiestPerThousand = new ArrayList<>();
        long mastersUsed = 0;
        for (int run = 0; run < REPEATS; run++) {
            cluster.nodes().forEach(RedisServer::flushAll);
            store.stats(); // scripts loaded, connections open
            publishRates.add(publish(store));
            mastersUsed = cluster.nodes().stream().filter(node -> (Long) node.command("DBSIZE") > 0).count();
            Map<Integer, Double> cpuBefore = cpuSeconds(cluster);
            consumeRates.add(drain(store));
            Map<Integer, Double> cpuAfter = cpuSeconds(cluster);
            double total = 0;
            double busiest = 0;
            for (Map.Entry<Integer, Double> node : cpuAfter.entrySet()) {
                double used = node.getValue() - cpuBefore.get(node.getKey());
                total += used;
                busiest = Math.max(busiest, used);
            }
            cpuPerThousand.add(total * 1000 / TASKS * 1000); // ms of Redis CPU per 1,000 tasks
            busiestPerThousand.add(busiest * 1000 / TASKS * 1000);
        }
        double busiest = median(busiestPerThousand);
        System.out.printf("| %s | %d | %,.0f | %,.0f | %.0f ms | %.0f ms | %,.0f |%n", name, mastersUsed,
                median(publishRates), median(consumeRates), median(cpuPerThousand), busiest, 1_000_000 / busiest);
    }

    /** CPU seconds of each node's main thread (where scripts run), by port. */
    private static Map<Integer, Double> cpuSeconds(RedisCluster cluster) {
        Map<Integer, Double> seconds = new TreeMap<>();
        for (RedisServer node : cluster.nodes()) {
            double used = ((String) node.command("INFO", "cpu")).lines()
                    .filter(line -> line.startsWith("used_cpu_sys_main_thread:")
                            || line.startsWith("used_cpu_user_main_thread:"))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim())).sum();
            seconds.put(node.port(), used);
        }
        return seconds;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double publish(TaskStore store) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PUBLISHERS);
        try {
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int p = 0; p < PUBLISHERS; p++) {
                int publisher = p;
                done.add(pool.submit(() -> {
                    List<NewTask> batch = new ArrayList<>(BATCH);
                    for (int i = publisher; i < TASKS; i += PUBLISHERS) {
                        batch.add(NewTask.builder(Partition.regular("customer-" + (i % PARTITIONS)), PAYLOAD)
                                .id(TaskId.of("t" + i)).build());
                        if (batch.size() == BATCH) {
                            store.publish(batch);
                            batch.clear();
                        }
                    }
                    if (!batch.isEmpty()) {
                        store.publish(batch);
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            return TASKS / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private static double drain(TaskStore store) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CONSUMERS);
        AtomicLong acked = new AtomicLong();
        try {
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CONSUMERS; c++) {
                ConsumerId consumer = ConsumerId.of("bench-" + c);
                done.add(pool.submit(() -> {
                    while (acked.get() < TASKS) {
                        List<Lease> leases = store.consume(consumer, PREFETCH, Duration.ofMillis(20));
                        if (!leases.isEmpty()) {
                            store.ack(consumer, leases.stream().map(Lease::id).toList());
                            acked.addAndGet(leases.size());
                        }
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            return TASKS / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }
}
