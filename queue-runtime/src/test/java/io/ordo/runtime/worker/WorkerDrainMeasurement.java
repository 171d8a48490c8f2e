package io.ordo.runtime.worker;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.metrics.WorkerMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the runtime adds per task, for docs/decisions/worker-ack-on-fetch.md: {@code ordo.measure.tasks}
 * tasks (100-byte JSON payloads over {@code ordo.measure.partitions} regular partitions, few by default so the store's own scan of partitions does not hide the runtime) drained from the in-memory store by a
 * {@link Worker} (a no-op handler, the Jackson codec, Micrometer metrics, 8 handler threads, prefetch 32)
 * against a bare loop on one thread that consumes up to 32, decodes each payload with the same codec
 * and acks them. A measurement, not a test: it runs only with {@code -Dordo.measure=true} and prints
 * the medians of {@code ordo.measure.repeats} runs, in tasks/s and in CPU time of the process per task
 * (the worker spreads over the cores, the bare loop runs on one).
 * {@code mvn -q -B -pl queue-runtime -am test -Dtest=WorkerDrainMeasurement -Dsurefire.failIfNoSpecifiedTests=false -Dordo.measure=true}
 */
@EnabledIfSystemProperty(named = "ordo.measure", matches = "true")
class WorkerDrainMeasurement {
    private static final int TASKS = Integer.getInteger("ordo.measure.tasks", 200_000);
    private static final int REPEATS = Integer.getInteger("ordo.measure.repeats", 3);
    private static final int PARTITIONS = Integer.getInteger("ordo.measure.partitions", 8);
    private static final int PREFETCH = 32;
    private static final ConsumerId CONSUMER = ConsumerId.of("measure-1");

    /** The payload the handler decodes: about 100 bytes of JSON. */
    record Transfer(String account, String counterparty, long cents, String currency, String reference) {
    }

    private final JacksonPayloadCodec codec = new JacksonPayloadCodec();

    @Test
    void worker_against_a_bare_loop_on_the_in_memory_store() throws Exception {
        drainWithWorker(TASKS / 4, WorkerOptions.create()); // warm-up of both paths
        drainBare(TASKS / 4);
        measure("worker, ack-on-fetch, 2 fetches in flight", WorkerOptions.create());
        measure("worker, grouped acks, 1 fetch in flight",
                WorkerOptions.builder().ackOnFetch(false).fetchesInFlight(1).build());
    }

    private void measure(String label, WorkerOptions defaults) throws Exception {
        double[] worker = new double[REPEATS];
        double[] workerCpu = new double[REPEATS];
        double[] bare = new double[REPEATS];
        double[] bareCpu = new double[REPEATS];
        for (int i = 0; i < REPEATS; i++) {
            long cpu = processCpuNanos();
            bare[i] = drainBare(TASKS);
            bareCpu[i] = (processCpuNanos() - cpu) / 1e3 / TASKS;
            cpu = processCpuNanos();
            worker[i] = drainWithWorker(TASKS, defaults);
            workerCpu[i] = (processCpuNanos() - cpu) / 1e3 / TASKS;
        }
        System.out.printf("%s: %,.0f tasks/s, %.1f us of CPU per task; bare loop %,.0f tasks/s, %.1f us;"
                        + " worker/bare %.2f in tasks/s, %.2f in CPU per task (%,d tasks, medians of %d)%n",
                label, median(worker), median(workerCpu), median(bare), median(bareCpu),
                median(worker) / median(bare), median(workerCpu) / median(bareCpu), TASKS, REPEATS);
    }

    private double drainWithWorker(int tasks, WorkerOptions defaults) throws InterruptedException {
        TaskStore store = filledStore(tasks);
        CountDownLatch drained = new CountDownLatch(tasks);
        WorkerOptions options = WorkerOptions.builder().consumer(CONSUMER).concurrency(8).prefetch(PREFETCH)
                .fetchWait(Duration.ofMillis(100)).ackOnFetch(defaults.ackOnFetch())
                .fetchesInFlight(defaults.fetchesInFlight()).build();
        Worker<Transfer> worker = Worker.builder(store, Transfer.class, (transfer, context) -> Outcome.success())
                .options(options).codec(codec)
                .listener(new WorkerMetrics(new SimpleMeterRegistry(), store.queue()))
                .listener(new WorkerListener() {
                    @Override
                    public void taskSettled(Lease lease, Settlement settlement) {
                        drained.countDown();
                    }
                })
                .build();
        long start = System.nanoTime();
        worker.start();
        if (!drained.await(5, TimeUnit.MINUTES)) {
            throw new AssertionError("the worker did not drain the queue");
        }
        double rate = tasks / ((System.nanoTime() - start) / 1e9);
        worker.stop();
        return rate;
    }

    private double drainBare(int tasks) {
        TaskStore store = filledStore(tasks);
        long start = System.nanoTime();
        int done = 0;
        while (done < tasks) {
            List<Lease> leases = store.consume(CONSUMER, PREFETCH, Duration.ZERO);
            List<TaskId> ids = new ArrayList<>(leases.size());
            for (Lease lease : leases) {
                codec.decode(lease.task().payload(), Transfer.class);
                ids.add(lease.id());
            }
            if (!ids.isEmpty()) {
                store.ack(CONSUMER, ids);
            }
            done += ids.size();
        }
        return tasks / ((System.nanoTime() - start) / 1e9);
    }

    private static TaskStore filledStore(int tasks) {
        TaskStore store = new InMemoryTaskStoreFactory(Clock.system()).forQueue(QueueName.of("measure"));
        List<NewTask> batch = new ArrayList<>(1_000);
        for (int i = 0; i < tasks; i++) {
            String json = "{\"account\":\"acc-" + (100_000 + i % 900_000) + "\",\"counterparty\":\"acc-204518\","
                    + "\"cents\":" + (1_000 + i) + ",\"currency\":\"EUR\",\"reference\":\"inv-2026-" + i + "\"}";
            batch.add(NewTask.builder(Partition.regular("p-" + (i % PARTITIONS)), json.getBytes(StandardCharsets.UTF_8))
                    .id(TaskId.of("t" + i)).build());
            if (batch.size() == 1_000 || i == tasks - 1) {
                store.publish(batch);
                batch.clear();
            }
        }
        return store;
    }

    /** The CPU time of the whole process: on few cores the worker's handler threads run beside its fetches. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
