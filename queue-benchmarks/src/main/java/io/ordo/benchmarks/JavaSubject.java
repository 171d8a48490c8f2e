package io.ordo.benchmarks;

import io.ordo.domain.GroupName;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import static io.ordo.benchmarks.Mode.Sizes.HANDLER_THREADS;
import static io.ordo.benchmarks.Mode.Sizes.PARTITIONS;
import static io.ordo.benchmarks.Mode.Sizes.PREFETCH;

/** The workloads, written once over {@link BenchQueue}: Ordo on either store and raw Streams run the same code. */
final class JavaSubject implements Subject {
    private static final String WORKER = "bench-worker-1";
    /**
     * A publisher thread for every this many tasks/s of a latency workload (at most {@link #MOST_PUBLISHERS}):
     * a call that takes 2 ms on a busy machine must not cost the schedule its rate.
     */
    private static final int RATE_PER_PUBLISHER = 500;
    static final int MOST_PUBLISHERS = 16;
    /** How long an idle worker runs before its commands are counted: past its start-up calls. */
    static final Duration SETTLE = Duration.ofMillis(1_100);

    private final BenchQueue queue;
    private final int prefetch;

    /** @param prefetch the consume pattern's prefetch (32 for Ordo; Streams reads COUNT 50 in its usual pattern) */
    JavaSubject(BenchQueue queue, int prefetch) {
        this.queue = queue;
        this.prefetch = prefetch;
    }

    @Override
    public boolean supports(Workload workload) {
        return switch (workload) {
            case C1W -> queue instanceof OrdoQueue; // the worker runtime runs on Ordo's store port only
            case G1, M2 -> queue instanceof OrdoQueue; // consumer groups as Ordo has them: a publish fans out
            case M3 -> queue instanceof OrdoQueue; // raw Streams keeps no result with an acked entry
            case C2, C3 -> queue.hasPartitions();
            default -> true;
        };
    }

    @Override
    public void warmUp(BenchContext context) {
        int tasks = context.sizes().warmUpTasks();
        long end = System.nanoTime() + 300_000_000L;
        for (int i = 0; System.nanoTime() < end && i < tasks; i++) {
            queue.publish(task(i, PARTITIONS, false));
        }
        context.redis().flushAll();
        drain(queue.hasPartitions() ? Workload.C2 : Workload.C1, tasks, context);
        context.redis().flushAll();
    }

    @Override
    public Measurement run(Workload workload, BenchContext context) {
        Mode.Sizes sizes = context.sizes();
        return switch (workload) {
            case P1 -> publishOneByOne(sizes.publishSeconds(), context);
            case P2 -> publishInBatches(sizes.publishTasks(), context);
            case G1 -> publishToGroups(sizes.publishTasks(), context);
            case C1 -> drain(Workload.C1, sizes.drainTasks(), context);
            case C1W -> drain(Workload.C1W, sizes.drainTasks(), context);
            case C2 -> drain(Workload.C2, sizes.drainTasks(), context);
            case C3 -> drainAcrossPartitionCounts(context);
            case L1 -> latency(Workload.L1, Mode.Sizes.L1_RATE, sizes.l1Seconds(), context);
            case L2 -> latency(Workload.L2, Mode.Sizes.L2_RATE, sizes.l2Seconds(), context);
            case M1 -> memory(sizes.memoryTasks(), context);
            case M2 -> memoryPerGroup(sizes.groupMemoryTasks(), context);
            case M3 -> memoryOfResults(sizes.resultMemoryTasks(), context);
            case I1 -> idle(sizes.idleSeconds(), context);
        };
    }

    // ---------------------------------------------------------------- publish

    private Measurement publishOneByOne(double seconds, BenchContext context) {
        context.startMeasuring();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        int published = 0;
        while (System.nanoTime() < end) {
            queue.publish(task(published, PARTITIONS, false));
            published++;
        }
        return new Measurement().add(Figure.P1_RATE, published / secondsSince(start)).tasks(published);
    }

    private Measurement publishInBatches(int tasks, BenchContext context) {
        context.startMeasuring();
        long start = System.nanoTime();
        publishAll(tasks, PARTITIONS, false, Mode.Sizes.PUBLISH_BATCH);
        return new Measurement().add(Figure.P2_RATE, tasks / secondsSince(start)).tasks(tasks);
    }

    /**
     * P2 on a queue with {@code GROUPS} consumer groups, created before measuring: each publish call delivers
     * every task of its batch to each group. Checked afterwards, inside the measured part (four cheap calls
     * against thousands of tasks): each group holds every task and the queue's own view none.
     */
    private Measurement publishToGroups(int tasks, BenchContext context) {
        OrdoQueue ordo = (OrdoQueue) queue;
        List<GroupName> groups = ordo.createGroups(Mode.Sizes.GROUPS);
        context.startMeasuring();
        long start = System.nanoTime();
        publishAll(tasks, PARTITIONS, false, Mode.Sizes.PUBLISH_BATCH);
        double rate = tasks / secondsSince(start);
        Measurement.Check delivered = deliveredToEveryGroup(ordo, groups, tasks);
        return new Measurement().add(Figure.G1_RATE, rate).tasks(tasks)
                .check("G1: " + delivered.name(), delivered.passed(), delivered.detail());
    }

    /** Whether each group received and holds every task published, and the queue's own view none (docs/groups.md). */
    private static Measurement.Check deliveredToEveryGroup(OrdoQueue ordo, List<GroupName> groups, long tasks) {
        List<String> wrong = new ArrayList<>();
        for (GroupName group : groups) {
            QueueStats stats = ordo.stats(group);
            if (stats.ready() != tasks || stats.publishedTotal() != tasks) {
                wrong.add(String.format("group %s received %,d and holds %,d", group, stats.publishedTotal(),
                        stats.ready()));
            }
        }
        long own = ordo.stats().ready();
        if (own != 0) {
            wrong.add(String.format("the queue's own view holds %,d", own));
        }
        return new Measurement.Check("every group holds every task, the queue's own view none", wrong.isEmpty(),
                wrong.isEmpty() ? String.format("%,d tasks in %s", tasks,
                        groups.size() == 1 ? "the group" : "each of " + groups.size() + " groups")
                        : String.join("; ", wrong));
    }

    /** Task i goes to partition i mod partitions, as the partition's (i / partitions)-th task. */
    private static BenchQueue.Task task(int index, int partitions, boolean ordered) {
        int partition = index % partitions;
        return new BenchQueue.Task(partition, ordered, BenchPayload.of(index, partition, index / partitions));
    }

    private void publishAll(int tasks, int partitions, boolean ordered, int batchSize) {
        List<BenchQueue.Task> batch = new ArrayList<>(batchSize);
        for (int i = 0; i < tasks; i++) {
            batch.add(task(i, partitions, ordered));
            if (batch.size() == batchSize || i == tasks - 1) {
                queue.publish(batch);
                batch = new ArrayList<>(batchSize);
            }
        }
    }

    // ---------------------------------------------------------------- consume

    /** C1, C1W or C2: pre-loads the tasks over {@code PARTITIONS} partitions, then drains them all. */
    private Measurement drain(Workload workload, int tasks, BenchContext context) {
        boolean ordered = workload == Workload.C2;
        publishAll(tasks, PARTITIONS, ordered, Mode.Sizes.PRELOAD_BATCH);
        Ledger ledger = new Ledger(tasks, ordered ? PARTITIONS : 0, false);
        context.startMeasuring();
        double rate = workload == Workload.C1W
                ? timedDrain(ledger, tasks, () -> new RuntimeWorker((OrdoQueue) queue, WORKER, ledger, HANDLER_THREADS,
                        prefetch))
                : timedDrain(ledger, tasks, tasks);
        Measurement.Check once = ledger.exactlyOnce(tasks);
        Measurement measurement = new Measurement()
                .add(Figure.drainRate(workload), rate)
                .tasks(tasks)
                .check(workload + ": " + once.name(), once.passed(), once.detail());
        if (ordered) {
            measurement.add(Figure.C2_VIOLATIONS, ledger.violations())
                    .check("C2: order kept in every ordered partition", ledger.violations() == 0,
                            ledger.violations() + " tasks handled out of order");
        }
        return measurement;
    }

    /** Drains {@code tasks} more tasks with a fresh harness driver, until {@code ackedWhenDone} acks in all. */
    private double timedDrain(Ledger ledger, long tasks, long ackedWhenDone) {
        return timedDrain(ledger, ackedWhenDone, () -> new DrainWorker(queue.consumer(WORKER), ledger,
                HANDLER_THREADS, prefetch, tasks, DrainWorker.BUSY_FETCH_WAIT).start());
    }

    /** Tasks/s from the worker's start to the last ack; the worker stops once {@code ackedWhenDone} acks came in all. */
    private double timedDrain(Ledger ledger, long ackedWhenDone, Supplier<BenchWorker> startWorker) {
        long start = System.nanoTime();
        long acksAtStart = ledger.acked();
        try (BenchWorker worker = startWorker.get()) {
            if (!ledger.awaitAcked(ackedWhenDone, drainTimeout(ackedWhenDone), worker::rethrowFailure)) {
                throw new IllegalStateException("drain did not finish: " + ledger.acked() + " of " + ackedWhenDone
                        + " acked");
            }
            return (ackedWhenDone - acksAtStart) / ((ledger.lastAckNanos() - start) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", e);
        }
    }

    private static Duration drainTimeout(long tasks) {
        return Duration.ofSeconds(60 + tasks / 1_000);
    }

    /** Per partition count: one pre-load, then each repetition drains its own part of it. */
    private Measurement drainAcrossPartitionCounts(BenchContext context) {
        Mode.Sizes sizes = context.sizes();
        Measurement measurement = new Measurement();
        for (int partitions : sizes.c3Partitions()) {
            context.redis().flushAll();
            publishAll(sizes.c3QueueTasks(), partitions, false, Mode.Sizes.PRELOAD_BATCH);
            Ledger ledger = new Ledger(sizes.c3QueueTasks(), 0, false);
            context.startMeasuring();
            for (int rep = 1; rep <= context.repetitions(); rep++) {
                measurement.add(Figure.c3(partitions),
                        timedDrain(ledger, sizes.c3DrainTasks(), (long) rep * sizes.c3DrainTasks()));
            }
            Measurement.Check once = ledger.exactlyOnce((long) context.repetitions() * sizes.c3DrainTasks());
            measurement.check("C3 " + Figure.count(partitions) + ": " + once.name(), once.passed(), once.detail());
        }
        return measurement;
    }

    // ---------------------------------------------------------------- latency

    /**
     * Publishes one task per call on a fixed schedule (open loop: a late call does not delay the ones
     * after it) while one worker handles them; each task carries the time its publish call started. The
     * schedule ends with its time: a contender that cannot publish at the rate publishes fewer tasks,
     * and the rate it reached is reported.
     */
    private Measurement latency(Workload workload, int rate, double seconds, BenchContext context) {
        int planned = (int) (rate * seconds);
        Ledger ledger = new Ledger(planned, 0, true);
        try (DrainWorker worker = new DrainWorker(queue.consumer(WORKER), ledger, HANDLER_THREADS, prefetch,
                planned, DrainWorker.BUSY_FETCH_WAIT)) {
            worker.start();
            pause(Duration.ofMillis(150)); // the worker is waiting for work before the first publish
            context.startMeasuring();
            Schedule published = publishAtRate(rate, planned, seconds);
            if (!ledger.awaitAcked(published.tasks(), drainTimeout(published.tasks()), worker::rethrowFailure)) {
                throw new IllegalStateException(workload + ": only " + ledger.acked() + " of " + published.tasks()
                        + " acked");
            }
            long[] sorted = Stats.sorted(ledger.latencies());
            Measurement.Check once = ledger.exactlyOnce(published.tasks());
            return new Measurement()
                    .add(Figure.latency(workload, "p50"), Stats.percentile(sorted, 50) / 1e6)
                    .add(Figure.latency(workload, "p99"), Stats.percentile(sorted, 99) / 1e6)
                    .add(Figure.latency(workload, "p99.9"), Stats.percentile(sorted, 99.9) / 1e6)
                    .add(Figure.publishedRate(workload), published.tasks() / published.seconds())
                    .tasks(published.tasks())
                    .check(workload + ": " + once.name(), once.passed(), once.detail());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** How many tasks a paced publish got out, and in how long. */
    private record Schedule(int tasks, double seconds) {
    }

    /** Publishes on schedule from several threads until every task is out or the time is up. */
    private Schedule publishAtRate(int rate, int tasks, double seconds) throws InterruptedException {
        int threads = Math.min(MOST_PUBLISHERS, Math.max(1, (rate + RATE_PER_PUBLISHER - 1) / RATE_PER_PUBLISHER));
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime() + 1_000_000;
        long end = start + (long) (seconds * 1e9);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicInteger published = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int first = t;
            Thread publisher = new Thread(() -> {
                try {
                    for (int i = first; i < tasks && failure.get() == null; i += threads) {
                        long due = start + i * interval;
                        long wait;
                        while ((wait = due - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        if (System.nanoTime() - end > 0) {
                            break; // behind schedule when the time is up: the rest is not published
                        }
                        queue.publish(task(i, PARTITIONS, false)); // stamped now: the call starts here
                        published.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "bench-publisher-" + t);
            publisher.setDaemon(true);
            publisher.start();
        }
        done.await();
        if (failure.get() != null) {
            throw failure.get();
        }
        return new Schedule(published.get(), (System.nanoTime() - start) / 1e9);
    }

    // ---------------------------------------------------------------- memory, idle

    /** Queues the tasks; the INFO memory delta per task is the figure. */
    private Measurement memory(int tasks, BenchContext context) {
        context.startMeasuring();
        long before = context.redis().usedMemory();
        publishAll(tasks, PARTITIONS, false, Mode.Sizes.PRELOAD_BATCH);
        return new Measurement().add(Figure.M1_BYTES, (context.redis().usedMemory() - before) / (double) tasks);
    }

    /**
     * Queues the tasks of M1 on a queue with 1 consumer group, then, on the emptied server, on one with
     * {@code GROUPS}: what each further group keeps per task is the difference of the two INFO memory deltas
     * over the further groups and the tasks.
     */
    private Measurement memoryPerGroup(int tasks, BenchContext context) {
        OrdoQueue ordo = (OrdoQueue) queue;
        context.startMeasuring();
        Measurement measurement = new Measurement();
        long oneGroup = queuedBytes(ordo, 1, tasks, context, measurement);
        context.redis().flushAll();
        long groups = queuedBytes(ordo, Mode.Sizes.GROUPS, tasks, context, measurement);
        return measurement.add(Figure.M2_BYTES, (groups - oneGroup) / (double) (Mode.Sizes.GROUPS - 1) / tasks);
    }

    /** The INFO memory delta of queuing the tasks on a queue with this many groups, checked delivered to each. */
    private long queuedBytes(OrdoQueue ordo, int groupCount, int tasks, BenchContext context,
                             Measurement measurement) {
        List<GroupName> groups = ordo.createGroups(groupCount);
        long before = context.redis().usedMemory();
        publishAll(tasks, PARTITIONS, false, Mode.Sizes.PRELOAD_BATCH);
        long bytes = context.redis().usedMemory() - before;
        Measurement.Check delivered = deliveredToEveryGroup(ordo, groups, tasks);
        measurement.check("M2, " + groupCount + (groupCount == 1 ? " group: " : " groups: ") + delivered.name(),
                delivered.passed(), delivered.detail());
        return bytes;
    }

    /**
     * Queues the tasks of M1 on a queue that keeps results, completes them all with a 100-byte result each, then
     * does the same on the emptied server with plain acks (an empty result kept): each pass reads INFO memory on
     * the empty queue, once the tasks are queued and once all are kept completed.
     */
    private Measurement memoryOfResults(int tasks, BenchContext context) {
        OrdoQueue ordo = (OrdoQueue) queue;
        context.startMeasuring();
        Measurement measurement = new Measurement();
        RetainedMemory withResults = keptBytes(ordo, true, tasks, context, measurement);
        context.redis().flushAll();
        RetainedMemory plainAcks = keptBytes(ordo, false, tasks, context, measurement);
        return measurement
                .add(Figure.M3_BYTES, withResults.perCompletedTask())
                .add(Figure.M3_OVER_QUEUED, withResults.overQueued())
                .add(Figure.M3_EMPTY_BYTES, plainAcks.perCompletedTask())
                .add(Figure.M3_EMPTY_OVER_QUEUED, plainAcks.overQueued());
    }

    /** One pass of M3, checked afterwards (outside the readings): every task kept completed, with its result. */
    private RetainedMemory keptBytes(OrdoQueue ordo, boolean withResults, int tasks, BenchContext context,
                                     Measurement measurement) {
        ordo.keepResults(Mode.Sizes.RESULT_RETENTION);
        long empty = context.redis().usedMemory();
        publishAll(tasks, PARTITIONS, false, Mode.Sizes.PRELOAD_BATCH);
        long queued = context.redis().usedMemory();
        OrdoQueue.Completed done = ordo.completeAll(WORKER,
                withResults ? payload -> BenchPayload.result(BenchPayload.index(payload)) : null);
        long completed = context.redis().usedMemory();
        Measurement.Check kept = keptCompleted(ordo, done, tasks, withResults);
        measurement.check("M3, " + (withResults ? "100-byte results: " : "plain acks: ") + kept.name(), kept.passed(),
                kept.detail());
        return new RetainedMemory(empty, queued, completed, tasks);
    }

    /** Whether every task was acked once and is kept completed, the last one with the result it was given. */
    private static Measurement.Check keptCompleted(OrdoQueue ordo, OrdoQueue.Completed done, long tasks,
                                                   boolean withResults) {
        List<String> wrong = new ArrayList<>();
        QueueStats stats = ordo.stats();
        if (done.acked() != tasks || stats.completed() != tasks || stats.ready() + stats.inFlight() != 0) {
            wrong.add(String.format("%,d acked, %,d kept completed, %,d ready, %,d in flight", done.acked(),
                    stats.completed(), stats.ready(), stats.inFlight()));
        }
        byte[] expected = withResults ? BenchPayload.result(BenchPayload.index(done.lastPayload())) : new byte[0];
        Optional<TaskSnapshot> last = ordo.get(done.last());
        boolean keptAsGiven = last.flatMap(TaskSnapshot::completion).map(c -> Arrays.equals(c.result(), expected))
                .orElse(false);
        if (!keptAsGiven) {
            wrong.add("the last task completed shows " + last.map(t -> t.state() + " with " + t.completion())
                    .orElse("nothing"));
        }
        return new Measurement.Check("every task kept completed with its result", wrong.isEmpty(),
                wrong.isEmpty() ? String.format("%,d tasks, each %s", tasks,
                        withResults ? "with its " + BenchPayload.SIZE + "-byte result" : "with an empty result")
                        : String.join("; ", wrong));
    }

    /** One worker with nothing to do for {@code seconds}; the commands it sends, counted in one window per repetition. */
    private Measurement idle(double seconds, BenchContext context) {
        Measurement measurement = new Measurement();
        try (DrainWorker worker = new DrainWorker(queue.consumer(WORKER), new Ledger(1, 0, false), HANDLER_THREADS,
                prefetch, Long.MAX_VALUE, DrainWorker.IDLE_FETCH_WAIT)) {
            worker.start();
            pause(SETTLE); // past its first fetch and keep-alive
            context.startMeasuring();
            double window = seconds / context.repetitions();
            for (int rep = 0; rep < context.repetitions(); rep++) {
                long sent = context.redis().countSentCommands(Duration.ofMillis((long) (window * 1000)));
                measurement.add(Figure.I1_COMMANDS, sent / window);
            }
            worker.rethrowFailure();
        }
        return measurement;
    }

    private static double secondsSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
