package io.ordo.lettuce;

import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
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
 * Redis CPU per task of each hot operation at several batch sizes, one caller, for the cost model in
 * docs/benchmarks.md: publish, consume alone, ack alone, and ack riding on the next consume. Server CPU
 * is {@code INFO cpu} (user + system) over the phase, so a call's round trip is counted as it is in use.
 * A measurement, not a test: it runs only with {@code -Dordo.measure=true} and prints its figures.
 * {@code mvn -q -B test -pl adapter-lettuce -Dtest=ServerCostMeasurement -Dordo.measure=true}
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class ServerCostMeasurement {
    private static final int TASKS = Integer.getInteger("ordo.measure.tasks", 40_000);

    @Test
    void server_cpu_per_task_by_operation_and_batch() {
        System.out.printf("%,d tasks, %,d %s partitions, %d-byte payload, UUID ids; server CPU µs per task%n",
                TASKS, MeasuredQueue.PARTITIONS, MeasuredQueue.kind(), MeasuredQueue.PAYLOAD.length);
        System.out.println("batch | publish | consume | ack | ack+consume");
        for (int batch : new int[] {1, 10, 32, 100}) {
            try (RedisServer server = RedisServer.start();
                 RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(server.uri()))) {
                TaskStore store = factory.forQueue(QueueName.of("measure"));
                int tasks = batch == 1 ? TASKS / 4 : TASKS;
                double publish = cpu(server, () -> MeasuredQueue.fill(store, tasks, batch));
                List<Lease> held = new ArrayList<>();
                server.command("CONFIG", "RESETSTAT");
                double consume = cpu(server, () -> {
                    while (held.size() < tasks) {
                        List<Lease> taken = store.consume(MeasuredQueue.WORKER, batch, Duration.ZERO);
                        if (taken.isEmpty()) {
                            break; // ordered: every partition is locked to this consumer until it acks
                        }
                        held.addAll(taken);
                    }
                });
                if (Boolean.getBoolean("ordo.measure.commandstats")) {
                    System.out.println("consume, batch " + batch + ":\n" + server.command("INFO", "commandstats"));
                }
                double ack = cpu(server, () -> {
                    for (int i = 0; i < held.size(); i += batch) {
                        store.ack(MeasuredQueue.WORKER, held.subList(i, Math.min(i + batch, held.size())).stream().map(Lease::id).toList());
                    }
                });
                MeasuredQueue.fill(store, tasks, 100);
                double both = cpu(server, () -> MeasuredQueue.drainAckingOnConsume(store, tasks, batch));
                System.out.printf("%5d | %7.1f | %7.1f | %5.1f | %7.1f%n", batch, publish / tasks, consume / held.size(),
                        ack / held.size(), both / tasks);
            }
        }
    }


    /** Microseconds of server CPU the phase cost. */
    private static double cpu(RedisServer server, Runnable phase) {
        double before = serverCpuSeconds(server);
        phase.run();
        return (serverCpuSeconds(server) - before) * 1e6;
    }

    private static double serverCpuSeconds(RedisServer server) {
        String info = (String) server.command("INFO", "cpu");
        double total = 0;
        for (String line : info.lines().toList()) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                total += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }
}
