package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operations whose size the operator does not choose (redrive all, purge all, many tasks falling due at
 * once) run as several calls of a bounded chunk each, so none holds the server for long, and still do all
 * of their work. Each test runs on a server of its own: it counts the server's function calls.
 */
public abstract class RedisChunkedOperationsKit {
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");
    /** More than the largest chunk of any of these operations (docs/reliability.md). */
    private static final int MANY = 4_500;

    private RedisServer server;
    private RedisTaskStoreFactory factory;
    private VirtualClock clock;
    private TaskStore store;

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @BeforeEach
    void startServer() {
        server = RedisServer.start();
        factory = createFactory(RedisOptions.create(server.uri()));
        clock = new VirtualClock();
        store = factory.forQueue(QueueName.of("chunks-" + UUID.randomUUID()), clock);
    }

    @AfterEach
    void stopServer() {
        factory.close();
        server.close();
    }

    @Test
    void redrive_all_sends_every_dead_letter_back_in_several_bounded_calls() {
        deadLetters(MANY);
        server.command("CONFIG", "RESETSTAT");

        long redriven = store.redriveAll();

        assertThat(redriven).isEqualTo(MANY);
        assertThat(functionCalls()).as("calls of one redrive all").isGreaterThanOrEqualTo(3);
        QueueStats stats = store.stats();
        assertThat(stats.dead()).isZero();
        assertThat(stats.ready()).isEqualTo(MANY);
        assertThat(drainIds()).hasSize(MANY).doesNotHaveDuplicates();
    }

    @Test
    void redrive_all_redrives_exactly_the_dead_letters_of_its_start_while_tasks_die_between_its_calls()
            throws Exception {
        deadLetters(MANY);
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger failedMeanwhile = new java.util.concurrent.atomic.AtomicInteger();
        ConsumerId other = ConsumerId.of("worker-2");
        java.util.concurrent.ExecutorService side = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<?> dying = side.submit(() -> {
            int next = 0;
            boolean begun = false;
            while (running.get()) {
                store.publish(List.of(NewTask.builder(Partition.of("side"), new byte[8]).id("side-" + next++).build()));
                List<Lease> taken = store.consume(other, 20, Duration.ZERO);
                while (!begun && running.get()) { // a task dead before the run's first call would be one of its start
                    begun = store.stats().dead() < MANY;
                }
                store.fail(other, taken.stream().map(Lease::id).toList(), "dies meanwhile");
                failedMeanwhile.addAndGet(taken.size());
            }
        });
        long redriven;
        try {
            redriven = store.redriveAll();
        } finally {
            running.set(false);
            dying.get(1, java.util.concurrent.TimeUnit.MINUTES);
            side.shutdown();
        }

        assertThat(redriven).as("the dead letters there were when the run began").isEqualTo(MANY);
        assertThat(store.stats().dead()).as("every task that died during the run").isEqualTo(failedMeanwhile.get());
    }

    @Test
    void purge_all_deletes_every_dead_letter_in_several_bounded_calls() {
        deadLetters(MANY);
        server.command("CONFIG", "RESETSTAT");

        long purged = store.purgeAllDeadLetters();

        assertThat(purged).isEqualTo(MANY);
        assertThat(functionCalls()).as("calls of one purge all").isGreaterThanOrEqualTo(3);
        assertThat(store.stats().dead()).isZero();
        assertThat(store.deadLetters(0, 10).items()).isEmpty();
        assertThat(store.get(TaskId.of("t-0"))).isEmpty();
        assertThat(store.get(TaskId.of("t-" + (MANY - 1)))).isEmpty();
    }

    @Test
    void the_trim_deletes_every_dead_letter_past_the_age_cap_in_several_bounded_calls() {
        deadLetters(MANY);
        store.configure(QueueSettings.builder().deadLetterMaxAge(Duration.ofMinutes(1)).build());
        clock.advance(Duration.ofMinutes(1));
        server.command("CONFIG", "RESETSTAT");

        long dropped = store.trimDeadLetters();

        assertThat(dropped).isEqualTo(MANY);
        assertThat(functionCalls()).as("calls of one trim").isGreaterThanOrEqualTo(3);
        QueueStats stats = store.stats();
        assertThat(stats.dead()).isZero();
        assertThat(stats.deadLettersDroppedTotal()).isEqualTo(MANY);
        assertThat(store.get(TaskId.of("t-" + (MANY - 1)))).isEmpty();
    }

    @Test
    void a_count_cap_lowered_below_many_dead_letters_is_reached_by_the_trim_in_several_bounded_calls() {
        deadLetters(MANY);
        store.configure(QueueSettings.builder().deadLetterMaxCount(10).build());
        assertThat(store.stats().dead()).as("configure deletes nothing").isEqualTo(MANY);
        server.command("CONFIG", "RESETSTAT");

        long dropped = store.trimDeadLetters();

        assertThat(dropped).isEqualTo(MANY - 10);
        assertThat(functionCalls()).as("calls of one trim").isGreaterThanOrEqualTo(3);
        assertThat(store.deadLetters(0, 20).items()).extracting(dead -> dead.id().value()).hasSize(10)
                .doesNotContain("t-0");
    }

    @Test
    void tasks_falling_due_together_are_made_ready_over_several_calls_before_one_is_taken() {
        publishFallingDueNow(MANY);
        server.command("CONFIG", "RESETSTAT");

        List<Lease> first = store.consume(WORKER, 10, Duration.ZERO);

        assertThat(first).hasSize(10);
        assertThat(functionCalls()).as("calls of one consume").isGreaterThanOrEqualTo(3);
        assertThat(store.stats().ready()).isEqualTo(MANY - 10);
    }

    @Test
    void reclaim_takes_back_a_consumer_holding_many_tasks_in_several_bounded_calls_and_keeps_ordered_order() {
        publishRegularAndOrdered();
        int held = 0;
        List<Lease> taken;
        while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            held += taken.size();
        }
        assertThat(held).as("held by the worker: every regular task and a run of the ordered partition")
                .isGreaterThan(MANY + 500);
        clock.advance(Duration.ofMinutes(5));
        server.command("CONFIG", "RESETSTAT");

        var report = store.reclaim();

        assertThat(functionCalls()).as("calls of one reclaim").isGreaterThanOrEqualTo(3);
        assertThat(report.returned()).isEqualTo(held);
        assertThat(report.deadConsumers()).containsExactly(WORKER);
        assertThat(store.stats().inFlight()).isZero();
        assertThat(store.stats().lockedPartitions()).isZero();
        List<String> ordered = new ArrayList<>();
        ConsumerId other = ConsumerId.of("worker-2");
        while (!(taken = store.consume(other, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            taken.stream().filter(lease -> lease.partition().isOrdered()).forEach(lease -> ordered.add(lease.id().value()));
            store.ack(other, taken.stream().map(Lease::id).toList());
        }
        assertThat(ordered).hasSize(1_500).isSorted();
    }

    @Test
    void reclaim_times_out_the_overdue_tasks_of_a_live_consumer_holding_many_in_several_bounded_calls() {
        store.configure(QueueSettings.builder().processingTimeout(Duration.ofSeconds(10))
                .heartbeatTtl(Duration.ofMinutes(1)).build());
        publishRegularAndOrdered();
        int regular = 0;
        int ordered = 0;
        List<Lease> taken;
        while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            for (Lease lease : taken) {
                if (lease.partition().isOrdered()) {
                    ordered++;
                } else {
                    regular++;
                }
            }
        }
        assertThat(regular).isEqualTo(MANY);
        assertThat(ordered).as("a run of the ordered partition").isPositive();
        clock.advance(Duration.ofSeconds(5));
        List<NewTask> late = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            late.add(NewTask.builder(Partition.of("late-" + (i % 10)), new byte[8]).id("late-" + i).build());
        }
        store.publish(late);
        assertThat(store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).hasSize(500);
        clock.advance(Duration.ofSeconds(6));
        server.command("CONFIG", "RESETSTAT");

        var report = store.reclaim();

        assertThat(functionCalls()).as("calls of one reclaim").isGreaterThanOrEqualTo(3);
        assertThat(report.deadConsumers()).as("the consumer lives").isEmpty();
        assertThat(report.timedOut()).as("each regular task, and the first of the ordered run")
                .isEqualTo(MANY + 1);
        assertThat(report.returned()).isEqualTo(MANY + ordered);
        assertThat(store.stats().inFlight()).as("the late tasks, not overdue").isEqualTo(500);
        List<String> orderedAgain = new ArrayList<>();
        ConsumerId other = ConsumerId.of("worker-2");
        while (!(taken = store.consume(other, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            taken.stream().filter(lease -> lease.partition().isOrdered()).forEach(lease -> {
                orderedAgain.add(lease.id().value());
                assertThat(lease.task().attempts()).as(lease.id() + ": only the first of the run counted an attempt")
                        .isEqualTo(lease.id().value().equals("o-0000") ? 2 : 1);
            });
            store.ack(other, taken.stream().map(Lease::id).toList());
        }
        assertThat(orderedAgain).hasSize(1_500).isSorted();
    }

    /**
     * A chunk also stops once it has run about a millisecond; a server too slow or too busy to do one item in
     * that time must still get through the work, a chunk at a time, rather than call again forever without
     * progress. The library is replaced by one whose every time check says the time is spent.
     */
    @Test
    void with_no_time_left_in_any_chunk_every_chunked_operation_still_finishes() {
        store.configure(QueueSettings.builder().processingTimeout(Duration.ofSeconds(10))
                .heartbeatTtl(Duration.ofSeconds(30)).build());
        withoutTimeBudget();
        int count = 200; // several chunks of each operation
        publishFallingDueNow(count);

        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertThat(drainHolding(WORKER)).as("due tasks made ready and taken").isEqualTo(count);
            clock.advance(Duration.ofSeconds(11));
            assertThat(store.reclaim().timedOut()).as("overdue tasks of a live consumer").isEqualTo(count);
            assertThat(drainHolding(WORKER)).isEqualTo(count);
            clock.advance(Duration.ofSeconds(31));
            assertThat(store.reclaim().returned()).as("tasks of a dead consumer").isEqualTo(count);
            List<Lease> taken;
            while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
                store.fail(WORKER, taken.stream().map(Lease::id).toList(), "broken");
            }
            assertThat(store.redriveAll()).as("dead letters redriven").isEqualTo(count);
            assertThat(drainHolding(WORKER)).isEqualTo(count);
            clock.advance(Duration.ofSeconds(31));
            store.configure(store.settings().toBuilder().maxAttempts(1).deadLetterMaxAge(Duration.ofSeconds(1)).build());
            assertThat(store.reclaim().deadLettered()).as("dead letters again").isEqualTo(count);
            clock.advance(Duration.ofSeconds(1));
            assertThat(store.trimDeadLetters()).as("dead letters aged out").isEqualTo(count);
            assertThat(store.stats().dead()).isZero();
        });
    }

    @Test
    void inspect_reads_partitions_and_delayed_tasks_in_several_bounded_calls_and_lists_the_busiest() {
        // partition i holds (i % 13) + 1 ready tasks, and one more not ready yet when i is even
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            Partition partition = Partition.of(String.format("p-%04d", i));
            for (int t = 0; t <= i % 13; t++) {
                batch.add(NewTask.builder(partition, new byte[8]).id("t-" + i + "-" + t).build());
            }
            if (i % 2 == 0) {
                batch.add(NewTask.builder(partition, new byte[8]).id("later-" + i).delay(Duration.ofHours(1)).build());
            }
        }
        for (int from = 0; from < batch.size(); from += 5_000) {
            store.publish(batch.subList(from, Math.min(from + 5_000, batch.size())));
        }
        server.command("CONFIG", "RESETSTAT");

        var inspection = store.inspect(10);

        assertThat(functionCalls()).as("calls of one inspect").isGreaterThanOrEqualTo(5);
        assertThat(inspection.totalPartitions()).isEqualTo(1_200);
        assertThat(inspection.busiestPartitions()).extracting(backlog -> backlog.partition().code())
                .containsExactly("p-0012", "p-0038", "p-0064", "p-0090", "p-0116", "p-0142", "p-0168", "p-0194",
                        "p-0220", "p-0246");
        assertThat(inspection.busiestPartitions()).allSatisfy(backlog -> {
            assertThat(backlog.waiting()).isEqualTo(14);
            assertThat(backlog.due()).isEqualTo(13);
        });
    }

    /** Publishes MANY tasks over ten regular partitions and 1,500 to the ordered partition {@code !o}. */
    private void publishRegularAndOrdered() {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            batch.add(NewTask.builder(Partition.of("p-" + (i % 10)), new byte[8]).id("t-" + i).build());
        }
        for (int i = 0; i < 1_500; i++) {
            batch.add(NewTask.builder(Partition.of("!o"), new byte[8]).id(String.format("o-%04d", i)).build());
        }
        for (int from = 0; from < batch.size(); from += 5_000) {
            store.publish(batch.subList(from, Math.min(from + 5_000, batch.size())));
        }
    }

    /** Publishes {@code count} tasks and fails each once: all dead letters. */
    private void deadLetters(int count) {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(NewTask.builder(Partition.of("p-" + (i % 10)), new byte[8]).id("t-" + i).build());
        }
        store.publish(batch);
        List<Lease> taken;
        while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            store.fail(WORKER, taken.stream().map(Lease::id).toList(), "broken");
        }
        assertThat(store.stats().dead()).isEqualTo(count);
    }

    /** Publishes {@code count} tasks over ten regular partitions, all due a second later, and lets the second pass. */
    private void publishFallingDueNow(int count) {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(NewTask.builder(Partition.of("p-" + (i % 10)), new byte[8]).id("t-" + i)
                    .delay(Duration.ofSeconds(1)).build());
        }
        store.publish(batch);
        clock.advance(Duration.ofSeconds(1));
    }

    /** Takes until nothing is left and holds it all; how many. */
    private int drainHolding(ConsumerId consumer) {
        int held = 0;
        List<Lease> taken;
        while (!(taken = store.consume(consumer, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            held += taken.size();
        }
        return held;
    }

    /** Replaces the loaded library by one whose chunks have no time at all: each stops at its first time check. */
    private void withoutTimeBudget() {
        server.replaceInLoadedLibraries("O.CHUNK_MICROS = 1000\n", "O.CHUNK_MICROS = 0\n");
    }

    private List<TaskId> drainIds() {
        List<TaskId> ids = new ArrayList<>();
        List<Lease> taken;
        while (!(taken = store.consume(WORKER, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            taken.forEach(lease -> ids.add(lease.id()));
            store.ack(WORKER, taken.stream().map(Lease::id).toList());
        }
        return ids;
    }

    private long functionCalls() {
        String info = (String) server.command("INFO", "commandstats");
        return info.lines().filter(line -> line.startsWith("cmdstat_fcall:")).findFirst()
                .map(line -> Long.parseLong(line.replaceAll("^cmdstat_fcall:calls=([0-9]+),.*", "$1")))
                .orElse(0L);
    }
}
