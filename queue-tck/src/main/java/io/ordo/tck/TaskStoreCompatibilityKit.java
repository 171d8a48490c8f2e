package io.ordo.tck;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.fixtures.HostileNames;
import io.ordo.tck.fixtures.TaskBuilder;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.PublishOutcome.DUPLICATE;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.ports.RejectOutcome.RETURNED_WITH_BATCH;
import static io.ordo.tck.fixtures.ConsumerFixture.worker;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.ConsumerFixture.workerC;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.anyTask;
import static io.ordo.tck.fixtures.TaskFixture.everyByteValue;
import static io.ordo.tck.fixtures.TaskFixture.numberedIds;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.payloadOf;
import static io.ordo.tck.fixtures.TaskFixture.payloadOfSize;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * The contract every {@link TaskStore} backend passes: SPEC.md ("Operations", "Ordering") and the
 * exact rules of docs/semantics.md. A backend's test extends this class and supplies
 * {@link #createStore}; each test runs on a fresh queue with a unique name, so backends that share
 * one server across tests need no cleanup between them.
 *
 * <p>Time is virtual: the store must take "now" from the clock it is given, and tests move it.
 * Only the consume-with-wait tests use wall time, with generous bounds.
 */
public abstract class TaskStoreCompatibilityKit {
    private static final Duration NO_WAIT = Duration.ZERO;
    private static final Duration DEFAULT_TTL = QueueSettings.DEFAULT_HEARTBEAT_TTL;
    /** Wall-time bound for "promptly": far above a correct store's few milliseconds, far below the wait. */
    private static final long PROMPTLY_MILLIS = 2_000;

    private VirtualClock clock;
    private QueueName queue;
    private TaskStore store;

    /**
     * A store serving {@code queue} that reads the time from {@code clock}. Called before every test,
     * and again by tests that need a second queue on the same backend.
     */
    protected abstract TaskStore createStore(QueueName queue, VirtualClock clock);

    /** The queue of the running test, e.g. for a backend that wants to delete its keys afterwards. */
    protected final QueueName queue() {
        return queue;
    }

    @BeforeEach
    void startOnAFreshQueue() {
        clock = new VirtualClock();
        queue = QueueName.of("tck-" + UUID.randomUUID());
        store = createStore(queue, clock);
    }

    // ---------------------------------------------------------------- steps shared by the groups

    /** Publishes one batch that the test relies on; every task must be created. */
    private void given(TaskBuilder... tasks) {
        given(Arrays.stream(tasks).map(TaskBuilder::build).collect(Collectors.toList()));
    }

    private void given(List<NewTask> tasks) {
        assertThat(store.publish(tasks)).as("setup publish").extracting(PublishReceipt::outcome)
                .containsOnly(CREATED);
    }

    private List<Lease> consume(ConsumerId consumer, int max) {
        return store.consume(consumer, max, NO_WAIT);
    }

    private List<String> consumeIds(ConsumerId consumer, int max) {
        return idsOf(consume(consumer, max));
    }

    private TaskSnapshot snapshot(String id) {
        return store.get(id(id)).orElseThrow(() -> new AssertionError("expected task '" + id + "' to exist"));
    }

    private int attemptsOf(String id) {
        return snapshot(id).task().attempts();
    }

    private TaskState stateOf(String id) {
        return snapshot(id).state();
    }

    private long now() {
        return clock.millis();
    }

    private void advanceMillis(long millis) {
        clock.advanceMillis(millis);
    }

    private void advance(Duration duration) {
        clock.advance(duration);
    }

    private void configure(Function<QueueSettings.Builder, QueueSettings.Builder> change) {
        store.configure(change.apply(store.settings().toBuilder()).build());
    }

    /** Lets every consumer registered so far (by consume, with the default TTL) die. */
    private void letDefaultHeartbeatsExpire() {
        advance(DEFAULT_TTL);
    }

    private static PublishReceipt receipt(String id, PublishOutcome outcome) {
        return new PublishReceipt(id(id), outcome);
    }

    private static void assertInvalid(String field, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).as("field named by " + e.getMessage()).isEqualTo(field));
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static List<String> leasesIn(List<Lease> leases, Partition partition) {
        return leases.stream().filter(lease -> lease.partition().equals(partition))
                .map(lease -> lease.id().value()).collect(Collectors.toList());
    }

    // ======================================================================================= publish

    @Nested
    class Publish {
        @Test
        void a_published_task_is_stored_exactly_as_given_and_pending() {
            Partition partition = regularPartition();
            byte[] payload = {1, 2, 3};

            List<PublishReceipt> receipts = store.publish(List.of(task("invoice-1", partition).priority(7)
                    .payload(payload).header("trace", "abc").header("tenant", "t-1").build()));

            assertThat(receipts).containsExactly(receipt("invoice-1", CREATED));
            TaskSnapshot snapshot = snapshot("invoice-1");
            assertThat(snapshot.state()).isEqualTo(PENDING);
            assertThat(snapshot.holder()).isEmpty();
            Task stored = snapshot.task();
            assertThat(stored.id()).isEqualTo(id("invoice-1"));
            assertThat(stored.partition()).isEqualTo(partition);
            assertThat(stored.priority()).isEqualTo(Priority.of(7));
            assertThat(stored.payload()).containsExactly(payload);
            assertThat(stored.headers()).isEqualTo(Map.of("trace", "abc", "tenant", "t-1"));
            assertThat(stored.seq()).isEqualTo(1);
            assertThat(stored.attempts()).isZero();
            assertThat(stored.publishedAt()).isEqualTo(now());
            assertThat(stored.dueAt()).isEqualTo(now());
            assertThat(stored.readyAt()).isEqualTo(now());
            assertThat(stored.lastError()).isNull();
        }

        @Test
        void receipts_come_back_in_batch_order() {
            List<PublishReceipt> receipts = store.publish(List.of(task("c").build(), task("a").build(), task("b").build()));

            assertThat(receipts).containsExactly(receipt("c", CREATED), receipt("a", CREATED), receipt("b", CREATED));
        }

        @Test
        void seq_counts_up_from_one_in_publish_order_within_and_across_batches() {
            given(task("c"), task("a"));
            given(task("b"));

            assertThat(List.of("c", "a", "b")).extracting(id -> snapshot(id).task().seq()).containsExactly(1L, 2L, 3L);
        }

        @Test
        void tasks_published_in_the_same_millisecond_keep_publish_order() {
            Partition partition = regularPartition();
            // Ids out of lexical order, so a store that breaks ties by id instead of seq fails.
            List<String> publishOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
            publishOrder.forEach(id -> given(task(id, partition)));

            assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(publishOrder);
        }

        @Test
        void tasks_of_one_batch_keep_batch_order() {
            Partition partition = regularPartition();
            List<String> batchOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
            given(tasksIn(partition, batchOrder.toArray(String[]::new)));

            assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(batchOrder);
        }

        @Test
        void a_delayed_task_is_delayed_until_exactly_its_due_time() {
            given(task("later").delayedBy(Duration.ofSeconds(10)));

            assertThat(stateOf("later")).isEqualTo(DELAYED);
            assertThat(snapshot("later").task().dueAt()).isEqualTo(now() + 10_000);
            assertThat(snapshot("later").task().readyAt()).isEqualTo(now() + 10_000);
            advanceMillis(9_999);
            assertThat(consume(workerA(), 10)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerA(), 10)).containsExactly("later");
        }

        @Test
        void a_task_due_earlier_goes_first_even_if_published_later() {
            Partition partition = regularPartition();
            given(task("due-in-2ms", partition).delayedByMillis(2));
            given(task("due-in-1ms", partition).delayedByMillis(1));
            given(task("due-now", partition));
            advanceMillis(2);

            assertThat(consumeIds(workerA(), 3)).containsExactly("due-now", "due-in-1ms", "due-in-2ms");
        }

        @Test
        void higher_priority_goes_first_then_earlier_due_time_then_publish_order() {
            Partition partition = regularPartition();
            given(task("normal", partition),
                    task("urgent-due-later", partition).priority(5).delayedBy(Duration.ofSeconds(1)),
                    task("urgent", partition).priority(5),
                    task("low", partition).priority(-3),
                    task("normal-too", partition));
            advance(Duration.ofSeconds(1));

            assertThat(consumeIds(workerA(), 5)).containsExactly("urgent", "urgent-due-later", "normal", "normal-too", "low");
        }

        @Test
        void the_whole_priority_range_is_ordered_exactly() {
            Partition partition = regularPartition();
            given(task("min", partition).priority(Priority.MIN), task("zero", partition).priority(0),
                    task("max-1", partition).priority(Priority.MAX - 1), task("min+1", partition).priority(Priority.MIN + 1),
                    task("max", partition).priority(Priority.MAX), task("one", partition).priority(1));

            assertThat(consumeIds(workerA(), 6)).containsExactly("max", "max-1", "one", "zero", "min+1", "min");
        }

        @Test
        void a_task_delayed_by_the_longest_delay_falls_due_exactly_then() {
            given(task("next-year").delayedBy(NewTask.MAX_DELAY).priority(Priority.MAX));

            advance(NewTask.MAX_DELAY.minusMillis(1));
            assertThat(consume(workerA(), 1)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerA(), 1)).containsExactly("next-year");
        }

        @Test
        void binary_payloads_empty_payloads_and_headers_come_back_byte_for_byte() {
            given(task("binary").payload(everyByteValue()).header("h:{1}", "v \u00e4 \uD83D\uDE00").header("empty", ""),
                    task("empty").payload(new byte[0]));

            assertThat(snapshot("binary").task().payload()).containsExactly(everyByteValue());
            assertThat(snapshot("binary").task().headers()).isEqualTo(Map.of("h:{1}", "v \u00e4 \uD83D\uDE00", "empty", ""));
            assertThat(snapshot("empty").task().payload()).isEmpty();
            assertThat(snapshot("empty").task().headers()).isEmpty();
            List<Lease> leases = consume(workerA(), 2);
            assertThat(leases).extracting(lease -> lease.task().payload()).containsExactly(everyByteValue(), new byte[0]);
        }

        @Test
        void publishing_an_id_that_exists_is_a_duplicate_and_changes_nothing() {
            given(task("x").payload("first"));
            Task before = snapshot("x").task();
            advanceMillis(5);

            List<PublishReceipt> receipts = store.publish(List.of(task("x").payload("second").priority(9)
                    .delayedBy(Duration.ofHours(1)).build()));

            assertThat(receipts).containsExactly(receipt("x", DUPLICATE));
            assertThat(snapshot("x").task()).isEqualTo(before);
            QueueStats stats = store.stats();
            assertThat(stats.ready()).isEqualTo(1);
            assertThat(stats.delayed()).isZero();
            assertThat(stats.activePartitions()).isEqualTo(1);
            assertThat(stats.publishedTotal()).isEqualTo(1);
        }

        @Test
        void the_same_id_twice_in_one_batch_is_created_once_then_duplicate() {
            Partition partition = regularPartition();

            List<PublishReceipt> receipts = store.publish(List.of(task("x", partition).payload("first").build(),
                    task("y", partition).build(), task("x", partition).payload("second").build()));

            assertThat(receipts).containsExactly(receipt("x", CREATED), receipt("y", CREATED), receipt("x", DUPLICATE));
            assertThat(consume(workerA(), 10)).extracting(lease -> new String(lease.task().payload(), StandardCharsets.UTF_8))
                    .containsExactly("first", new String(payloadOf("y"), StandardCharsets.UTF_8));
        }

        @Test
        void an_id_in_flight_or_dead_is_still_a_duplicate() {
            given(task("x"));
            consume(workerA(), 1);

            assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", DUPLICATE));
            store.fail(workerA(), ids("x"), "broken");
            assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", DUPLICATE));
            assertThat(stateOf("x")).isEqualTo(DEAD);
        }

        @Test
        void an_acked_id_may_be_published_again_when_no_dedup_window_is_set() {
            given(task("x"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("x"));

            assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", CREATED));
            assertThat(snapshot("x").task().attempts()).isZero();
        }

        @Test
        void a_batch_with_one_invalid_task_writes_nothing() {
            List<NewTask> batch = List.of(task("fine-1").build(),
                    task("too-big").payload(payloadOfSize(QueueSettings.DEFAULT_MAX_PAYLOAD_BYTES + 1)).build(),
                    task("fine-2").build());

            assertInvalid("tasks[1].payload", () -> store.publish(batch));

            assertThat(store.get(id("fine-1"))).isEmpty();
            assertThat(store.get(id("fine-2"))).isEmpty();
            QueueStats stats = store.stats();
            assertThat(stats.ready()).isZero();
            assertThat(stats.activePartitions()).isZero();
            assertThat(stats.publishedTotal()).isZero();
            // Nothing was reserved either: the valid tasks publish afterwards as new, numbered from one.
            assertThat(store.publish(List.of(batch.get(0), batch.get(2)))).extracting(PublishReceipt::outcome)
                    .containsExactly(CREATED, CREATED);
            assertThat(snapshot("fine-1").task().seq()).isEqualTo(1);
        }

        @Test
        void a_payload_of_exactly_the_maximum_size_is_accepted_and_one_byte_more_is_not() {
            configure(s -> s.maxPayloadBytes(64));

            assertThat(store.publish(List.of(task("fits").payload(payloadOfSize(64)).build())))
                    .containsExactly(receipt("fits", CREATED));
            assertInvalid("tasks[0].payload",
                    () -> store.publish(List.of(task("too-big").payload(payloadOfSize(65)).build())));
            assertThat(store.get(id("too-big"))).isEmpty();
        }

        @Test
        void an_empty_or_null_batch_is_rejected() {
            assertInvalid("tasks", () -> store.publish(List.of()));
            assertInvalid("tasks", () -> store.publish(null));
            assertThat(store.stats().publishedTotal()).isZero();
        }

        @Test
        void a_null_task_is_rejected_naming_its_position_and_nothing_is_written() {
            assertInvalid("tasks[1]", () -> store.publish(Arrays.asList(task("fine").build(), null)));
            assertThat(store.get(id("fine"))).isEmpty();
        }

        @Test
        void a_batch_of_ten_thousand_tasks_is_accepted_and_one_more_is_rejected() {
            Partition partition = regularPartition();
            List<NewTask> full = numberedTasksIn(partition, "t", 10_000);
            List<NewTask> tooMany = numberedTasksIn(partition, "u", 10_001);

            assertThat(store.publish(full)).hasSize(10_000).extracting(PublishReceipt::outcome).containsOnly(CREATED);
            assertInvalid("tasks", () -> store.publish(tooMany));
            assertThat(store.stats().ready()).isEqualTo(10_000);
            assertThat(store.get(id("u1"))).isEmpty();
        }
    }

    // ======================================================================================= consume

    @Nested
    class Consume {
        @Test
        void consuming_an_empty_queue_returns_nothing() {
            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void a_lease_carries_the_task_its_consumer_and_when_it_was_taken() {
            given(task("a"));
            advanceMillis(7);

            List<Lease> leases = consume(workerA(), 1);

            assertThat(leases).hasSize(1);
            Lease lease = leases.get(0);
            assertThat(lease.consumer()).isEqualTo(workerA());
            assertThat(lease.leasedAt()).isEqualTo(now());
            assertThat(lease.task().attempts()).isEqualTo(1);
            assertThat(lease.task()).isEqualTo(snapshot("a").task());
            assertThat(snapshot("a").state()).isEqualTo(IN_FLIGHT);
            assertThat(snapshot("a").holder()).contains(workerA());
        }

        @Test
        void consume_takes_at_most_max_tasks() {
            Partition partition = regularPartition();
            given(tasksIn(partition, "a", "b", "c", "d", "e"));

            assertThat(consumeIds(workerA(), 3)).containsExactly("a", "b", "c");
            assertThat(consumeIds(workerA(), 10)).containsExactly("d", "e");
            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void a_task_in_flight_is_not_delivered_again() {
            given(task("a"));
            consume(workerA(), 1);

            assertThat(consume(workerB(), 10)).isEmpty();
            assertThat(consume(workerA(), 10)).isEmpty();
            assertThat(snapshot("a").holder()).contains(workerA());
        }

        @Test
        void consume_registers_the_consumer_even_when_nothing_is_due() {
            consume(workerA(), 1);

            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advance(DEFAULT_TTL.minusMillis(1));
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advanceMillis(1);
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void consume_extends_a_consumer_but_never_shortens_a_longer_heartbeat() {
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            consume(workerA(), 1);

            advance(DEFAULT_TTL);
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advance(Duration.ofMinutes(10).minus(DEFAULT_TTL));
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void a_waiting_consume_returns_at_once_when_work_is_already_due() {
            given(task("a"));
            long start = System.nanoTime();

            List<Lease> leases = store.consume(workerA(), 1, Duration.ofSeconds(10));

            assertThat(idsOf(leases)).containsExactly("a");
            assertThat(millisSince(start)).isLessThan(PROMPTLY_MILLIS);
        }

        @Test
        void a_waiting_consume_wakes_promptly_when_another_thread_publishes() throws Exception {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<Lease>> waiting = pool.submit(() -> store.consume(workerA(), 1, Duration.ofSeconds(10)));
                Thread.sleep(100); // usually lets the consumer start waiting; the outcome is the same if not
                long publishedAt = System.nanoTime();
                given(task("a"));

                List<Lease> leases = waiting.get(30, TimeUnit.SECONDS);

                assertThat(idsOf(leases)).containsExactly("a");
                assertThat(millisSince(publishedAt)).isLessThan(PROMPTLY_MILLIS);
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void a_waiting_consume_wakes_promptly_when_another_consumer_gives_a_task_back() throws Exception {
            given(task("a"));
            consume(workerA(), 1);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<Lease>> waiting = pool.submit(() -> store.consume(workerB(), 1, Duration.ofSeconds(10)));
                Thread.sleep(100);
                long releasedAt = System.nanoTime();
                store.release(workerA(), ids("a"));

                List<Lease> leases = waiting.get(30, TimeUnit.SECONDS);

                assertThat(idsOf(leases)).containsExactly("a");
                assertThat(millisSince(releasedAt)).isLessThan(PROMPTLY_MILLIS);
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void a_waiting_consume_wakes_promptly_when_a_delayed_task_falls_due() throws Exception {
            given(task("soon").delayedByMillis(500));
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<Lease>> waiting = pool.submit(() -> store.consume(workerA(), 1, Duration.ofSeconds(10)));
                Thread.sleep(100);
                long dueAt = System.nanoTime();
                // Half a second of virtual time: a store that sleeps until the next due time in wall time still wakes in time.
                advanceMillis(500);

                List<Lease> leases = waiting.get(30, TimeUnit.SECONDS);

                assertThat(idsOf(leases)).containsExactly("soon");
                assertThat(millisSince(dueAt)).isLessThan(PROMPTLY_MILLIS);
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void a_waiting_consume_returns_nothing_once_the_wait_is_over() {
            long start = System.nanoTime();

            List<Lease> leases = store.consume(workerA(), 1, Duration.ofMillis(200));

            assertThat(leases).isEmpty();
            // A little under 200 ms allowed for timer granularity; far more means the wait was ignored.
            assertThat(millisSince(start)).isBetween(150L, PROMPTLY_MILLIS);
        }

        @Test
        void one_published_task_goes_to_exactly_one_of_two_waiting_consumers() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<List<Lease>> first = pool.submit(() -> store.consume(workerA(), 1, Duration.ofSeconds(1)));
                Future<List<Lease>> second = pool.submit(() -> store.consume(workerB(), 1, Duration.ofSeconds(1)));
                Thread.sleep(100);
                given(task("a"));

                List<String> delivered = new ArrayList<>(idsOf(first.get(30, TimeUnit.SECONDS)));
                delivered.addAll(idsOf(second.get(30, TimeUnit.SECONDS)));

                assertThat(delivered).containsExactly("a");
                assertThat(attemptsOf("a")).isEqualTo(1);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ============================================================================ ordered partitions

    @Nested
    class OrderedPartitions {
        @Test
        void an_ordered_partition_delivers_a_consecutive_run_in_key_order() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));

            List<Lease> leases = consume(workerA(), 3);

            assertThat(idsOf(leases)).containsExactly("o1", "o2", "o3");
            assertThat(leases).extracting(Lease::leasedAt).containsOnly(now());
            assertThat(store.stats().lockedPartitions()).isEqualTo(1);
        }

        @Test
        void tasks_published_in_the_same_millisecond_keep_publish_order() {
            Partition ordered = orderedPartition();
            List<String> publishOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
            publishOrder.forEach(id -> given(task(id, ordered)));

            assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(publishOrder);
        }

        @Test
        void an_ordered_partition_takes_its_tasks_by_priority_then_due_time_then_seq() {
            Partition ordered = orderedPartition();
            given(task("normal", ordered), task("urgent-due-later", ordered).priority(5).delayedByMillis(1),
                    task("urgent", ordered).priority(5), task("normal-too", ordered));
            advanceMillis(1);

            assertThat(consumeIds(workerA(), 4)).containsExactly("urgent", "urgent-due-later", "normal", "normal-too");
        }

        @Test
        void an_ordered_partition_is_never_held_by_two_consumers() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
            assertThat(consumeIds(workerA(), 2)).containsExactly("o1", "o2");

            assertThat(consume(workerB(), 10)).isEmpty();
            store.ack(workerA(), ids("o1"));
            assertThat(consume(workerB(), 10)).as("still held while o2 is in flight").isEmpty();
            store.ack(workerA(), ids("o2"));
            assertThat(consumeIds(workerB(), 10)).containsExactly("o3", "o4", "o5");
            assertThat(snapshot("o3").holder()).contains(workerB());
        }

        @Test
        void the_holder_itself_gets_nothing_more_from_its_held_partition() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 1);

            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void other_partitions_are_served_while_an_ordered_partition_is_held() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            given(task("r1", regularPartition()), task("p1", orderedPartition()));
            consume(workerA(), 1);

            assertThat(consumeIds(workerB(), 10)).containsExactly("r1", "p1");
        }

        @Test
        void one_consume_takes_a_whole_ordered_run_and_goes_on_with_other_partitions() {
            Partition ordered = orderedPartition();
            Partition regular = regularPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            given(tasksIn(regular, "r1", "r2", "r3"));

            assertThat(consumeIds(workerA(), 10)).containsExactly("o1", "o2", "o3", "r1", "r2", "r3");
        }

        @Test
        void a_rejected_ordered_task_keeps_its_position() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 1);
            advance(Duration.ofSeconds(1));

            assertThat(store.reject(workerA(), ids("o1"), Rejection.retryNow("flaky")))
                    .containsExactly(entry(id("o1"), RETURNED));

            List<Lease> leases = consume(workerB(), 10);
            assertThat(idsOf(leases)).containsExactly("o1", "o2", "o3");
            assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(2, 1, 1);
        }

        @Test
        void a_rejected_ordered_task_keeps_its_position_after_three_hundred_rejects_in_the_same_millisecond() {
            configure(s -> s.maxAttempts(QueueSettings.MAX_ATTEMPTS_LIMIT));
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "head", "second", "third"));

            for (int reject = 1; reject <= 300; reject++) {
                assertThat(consumeIds(workerA(), 1)).as("delivery %d", reject).containsExactly("head");
                assertThat(store.reject(workerA(), ids("head"), Rejection.retryNow("again")))
                        .containsExactly(entry(id("head"), RETURNED));
            }

            assertThat(snapshot("head").task().priority()).as("no priority inflation").isEqualTo(Priority.DEFAULT);
            List<Lease> leases = consume(workerA(), 3);
            assertThat(idsOf(leases)).containsExactly("head", "second", "third");
            assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(301, 1, 1);
        }

        @Test
        void rejects_do_not_inflate_priority() {
            Partition ordered = orderedPartition();
            given(task("rejected", ordered));
            for (int i = 0; i < 3; i++) {
                consume(workerA(), 1);
                store.reject(workerA(), ids("rejected"), Rejection.retryNow("again"));
            }
            given(task("slightly-urgent", ordered).priority(1));

            assertThat(consumeIds(workerA(), 2)).containsExactly("slightly-urgent", "rejected");
        }

        @Test
        void a_delayed_head_blocks_its_ordered_partition_until_due() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));

            assertThat(stateOf("o1")).isEqualTo(DELAYED);
            assertThat(stateOf("o2")).isEqualTo(PENDING);
            assertThat(consume(workerB(), 10)).isEmpty();
            advance(Duration.ofSeconds(10).minusMillis(1));
            assertThat(consume(workerB(), 10)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
        }

        @Test
        void a_delayed_high_priority_task_blocks_an_ordered_partition_but_not_a_regular_one() {
            Partition ordered = orderedPartition();
            Partition regular = regularPartition();
            given(task("ordered-urgent-later", ordered).priority(10).delayedBy(Duration.ofSeconds(5)), task("ordered-now", ordered));
            given(task("regular-urgent-later", regular).priority(10).delayedBy(Duration.ofSeconds(5)), task("regular-now", regular));

            assertThat(consumeIds(workerA(), 10)).containsExactly("regular-now");
            advance(Duration.ofSeconds(5));
            assertThat(consumeIds(workerB(), 10)).containsExactly("ordered-urgent-later", "ordered-now", "regular-urgent-later");
        }

        @Test
        void an_ordered_batch_stops_at_the_first_task_that_is_not_ready() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 3);
            store.reject(workerA(), ids("o2"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));
            store.ack(workerA(), ids("o1"));
            // Key order is now: urgent (ready), o2 (waits for its retry), o3 (ready).
            given(task("urgent", ordered).priority(1));

            assertThat(consumeIds(workerB(), 10)).containsExactly("urgent");
        }

        @Test
        void an_ordered_partition_holding_only_a_delayed_task_is_not_left_locked() {
            Partition ordered = orderedPartition();
            given(task("now", ordered), task("later", ordered).delayedBy(Duration.ofSeconds(10)));
            consume(workerA(), 10);
            store.ack(workerA(), ids("now"));

            assertThat(consume(workerA(), 10)).isEmpty();
            assertThat(store.stats().lockedPartitions()).isZero();
            advance(Duration.ofSeconds(10));
            assertThat(consumeIds(workerB(), 10)).containsExactly("later");
        }

        @Test
        void consuming_a_partition_whose_only_task_is_delayed_does_not_lock_it() {
            Partition ordered = orderedPartition();
            given(task("later", ordered).delayedBy(Duration.ofSeconds(10)));

            assertThat(consume(workerA(), 10)).isEmpty();
            assertThat(store.stats().lockedPartitions()).isZero();
            advance(Duration.ofSeconds(10));
            assertThat(consumeIds(workerB(), 10)).containsExactly("later");
        }

        @Test
        void rejecting_task_k_of_a_held_batch_returns_k_to_the_end_in_order() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
            consume(workerA(), 5);
            store.ack(workerA(), ids("o1"));

            Map<TaskId, RejectOutcome> outcomes = store.reject(workerA(), ids("o3"), Rejection.retryNow("o3 failed"));

            assertThat(outcomes).containsOnly(entry(id("o3"), RETURNED), entry(id("o4"), RETURNED_WITH_BATCH),
                    entry(id("o5"), RETURNED_WITH_BATCH));
            assertThat(List.of("o3", "o4", "o5")).extracting(id -> snapshot(id).task().attempts()).containsExactly(1, 0, 0);
            assertThat(snapshot("o3").task().lastError()).isEqualTo("o3 failed");
            assertThat(snapshot("o4").task().lastError()).as("o4 never ran").isNull();
            assertThat(snapshot("o2").holder()).as("tasks before k stay held").contains(workerA());
            assertThat(consume(workerB(), 10)).as("o2 still holds the lock").isEmpty();

            assertThat(store.ack(workerA(), ids("o2", "o4"))).containsExactly(entry(id("o2"), ACKED),
                    entry(id("o4"), AckOutcome.LEASE_LOST));
            List<Lease> leases = consume(workerB(), 10);
            assertThat(idsOf(leases)).containsExactly("o3", "o4", "o5");
            assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(2, 1, 1);
        }

        @Test
        void rejecting_several_tasks_of_a_held_batch_returns_everything_from_the_lowest_one() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
            consume(workerA(), 5);

            Map<TaskId, RejectOutcome> outcomes = store.reject(workerA(), ids("o4", "o2"), Rejection.retryNow("failed"));

            assertThat(outcomes).containsOnly(entry(id("o4"), RETURNED), entry(id("o2"), RETURNED),
                    entry(id("o3"), RETURNED_WITH_BATCH), entry(id("o5"), RETURNED_WITH_BATCH));
            assertThat(outcomes.keySet()).as("named ids in the order given").filteredOn(ids("o4", "o2")::contains)
                    .containsExactly(id("o4"), id("o2"));
            assertThat(List.of("o2", "o3", "o4", "o5")).extracting(TaskStoreCompatibilityKit.this::attemptsOf)
                    .containsExactly(1, 0, 1, 0);
            store.ack(workerA(), ids("o1"));
            assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o3", "o4", "o5");
        }

        @Test
        void rejecting_with_a_delay_holds_the_returned_batch_behind_its_delayed_head() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 3);

            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(5), "backoff"));

            assertThat(stateOf("o2")).as("readyAt of unnamed tasks is unchanged").isEqualTo(PENDING);
            assertThat(consume(workerB(), 10)).isEmpty();
            advance(Duration.ofSeconds(5));
            assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
        }

        @Test
        void a_held_batch_head_out_of_attempts_is_dead_lettered_and_the_rest_returned() {
            configure(s -> s.maxAttempts(1));
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 3);

            assertThat(store.reject(workerA(), ids("o1"), Rejection.retryNow("fatal"))).containsOnly(
                    entry(id("o1"), RejectOutcome.DEAD_LETTERED), entry(id("o2"), RETURNED_WITH_BATCH),
                    entry(id("o3"), RETURNED_WITH_BATCH));

            assertThat(stateOf("o1")).isEqualTo(DEAD);
            List<Lease> leases = consume(workerB(), 10);
            assertThat(idsOf(leases)).containsExactly("o2", "o3");
            assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(1, 1);
        }

        @Test
        void ordered_and_regular_partitions_with_the_same_name_are_different_partitions() {
            given(task("ordered", Partition.ordered("accounts")), task("ordered-2", Partition.ordered("accounts")),
                    task("regular", Partition.regular("accounts")));
            consume(workerA(), 1);

            assertThat(consumeIds(workerB(), 10)).containsExactly("regular");
        }
    }

    // ====================================================================================== fairness

    @Nested
    class Fairness {
        @Test
        void five_equal_partitions_are_served_round_robin() {
            List<Partition> partitions = IntStream.rangeClosed(1, 5).mapToObj(i -> regularPartition()).collect(Collectors.toList());
            for (int p = 1; p <= 5; p++) {
                given(numberedTasksIn(partitions.get(p - 1), "p" + p + "-", 4));
            }

            List<String> expected = new ArrayList<>();
            for (int round = 1; round <= 4; round++) {
                for (int p = 1; p <= 5; p++) {
                    expected.add("p" + p + "-" + round);
                }
            }
            assertThat(consumeIds(workerA(), 20)).containsExactlyElementsOf(expected);
        }

        @Test
        void five_equal_partitions_are_served_round_robin_one_consume_at_a_time() {
            for (int p = 1; p <= 5; p++) {
                given(numberedTasksIn(regularPartition(), "p" + p + "-", 3));
            }

            List<String> delivered = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                delivered.addAll(consumeIds(worker("w" + i), 1));
            }

            assertThat(delivered).containsExactly("p1-1", "p2-1", "p3-1", "p4-1", "p5-1", "p1-2", "p2-2", "p3-2",
                    "p4-2", "p5-2", "p1-3", "p2-3", "p3-3", "p4-3", "p5-3");
        }

        @Test
        void ordered_partitions_are_served_round_robin_too() {
            for (int p = 1; p <= 3; p++) {
                given(numberedTasksIn(orderedPartition(), "o" + p + "-", 2));
            }

            List<String> delivered = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                List<String> taken = consumeIds(workerA(), 1);
                delivered.addAll(taken);
                store.ack(workerA(), ids(taken));
            }

            assertThat(delivered).containsExactly("o1-1", "o2-1", "o3-1", "o1-2", "o2-2", "o3-2");
        }

        @Test
        void a_heavy_partition_does_not_starve_a_light_one() {
            given(numberedTasksIn(regularPartition(), "heavy-", 100));
            given(task("light"));

            assertThat(consumeIds(workerA(), 1)).containsExactly("heavy-1");
            assertThat(consumeIds(workerA(), 1)).containsExactly("light");
        }

        @Test
        void the_least_recently_served_partition_goes_first() {
            Partition a = regularPartition();
            Partition b = regularPartition();
            given(tasksIn(a, "a1", "a2"));
            given(tasksIn(b, "b1", "b2"));
            assertThat(consumeIds(workerA(), 1)).containsExactly("a1");
            given(task("c1"));

            assertThat(consumeIds(workerA(), 3)).containsExactly("b1", "a2", "c1");
        }

        @Test
        void a_partition_that_empties_and_refills_queues_behind_the_others() {
            Partition a = regularPartition();
            given(task("a1", a), task("b1"), task("c1"));
            assertThat(consumeIds(workerA(), 1)).containsExactly("a1");
            given(task("a2", a));

            assertThat(consumeIds(workerA(), 3)).containsExactly("b1", "c1", "a2");
        }

        @Test
        void the_highest_priority_head_goes_first_across_partitions() {
            given(numberedTasksIn(regularPartition(), "low-", 3));
            given(task("urgent").priority(5));

            assertThat(consumeIds(workerA(), 1)).containsExactly("urgent");
        }

        @Test
        void priority_comes_before_round_robin_across_partitions() {
            Partition a = regularPartition();
            Partition b = regularPartition();
            Partition c = regularPartition();
            given(tasksIn(a, "a1", "a2"));
            given(task("b1", b).priority(5), task("b2", b).priority(5));
            given(task("c1", c));

            assertThat(consumeIds(workerA(), 5)).containsExactly("b1", "b2", "a1", "c1", "a2");
        }

        @Test
        void a_high_priority_task_is_not_starved_by_low_priority_tasks_elsewhere() {
            for (int p = 0; p < 10; p++) {
                given(numberedTasksIn(regularPartition(), "low-" + p + "-", 5));
            }
            consume(workerA(), 7);
            given(task("urgent").priority(1));

            assertThat(consumeIds(workerB(), 1)).containsExactly("urgent");
        }

        @Test
        void a_held_ordered_partition_with_a_high_priority_head_does_not_hold_back_the_others() {
            Partition ordered = orderedPartition();
            given(task("o1", ordered).priority(9), task("o2", ordered).priority(9));
            given(task("r1"));
            consume(workerA(), 1);

            assertThat(consumeIds(workerB(), 10)).containsExactly("r1");
        }
    }

    // =========================================================================================== ack

    @Nested
    class Ack {
        @Test
        void acking_a_held_task_deletes_it() {
            given(task("a"));
            consume(workerA(), 1);

            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));

            assertThat(store.get(id("a"))).isEmpty();
            QueueStats stats = store.stats();
            assertThat(stats.inFlight()).isZero();
            assertThat(stats.ready()).isZero();
            assertThat(stats.ackedTotal()).isEqualTo(1);
            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void acking_a_task_held_by_another_consumer_is_lease_lost_and_changes_nothing() {
            given(task("a"));
            consume(workerA(), 1);

            assertThat(store.ack(workerB(), ids("a"))).containsExactly(entry(id("a"), AckOutcome.LEASE_LOST));

            assertThat(snapshot("a").holder()).contains(workerA());
            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
        }

        @Test
        void acking_an_unknown_or_waiting_task_is_lease_lost() {
            given(task("waiting"));

            assertThat(store.ack(workerA(), ids("unknown", "waiting"))).containsExactly(
                    entry(id("unknown"), AckOutcome.LEASE_LOST), entry(id("waiting"), AckOutcome.LEASE_LOST));
            assertThat(stateOf("waiting")).isEqualTo(PENDING);
        }

        @Test
        void acking_twice_is_lease_lost_the_second_time() {
            given(task("a"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("a"));

            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), AckOutcome.LEASE_LOST));
            assertThat(store.stats().ackedTotal()).isEqualTo(1);
        }

        @Test
        void an_ack_after_the_lease_was_lost_comes_back_as_lease_lost() {
            given(task("a"));
            consume(workerA(), 1);
            letDefaultHeartbeatsExpire();
            store.reclaim();

            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), AckOutcome.LEASE_LOST));
            assertThat(stateOf("a")).isEqualTo(PENDING);

            consume(workerB(), 1);
            assertThat(store.ack(workerA(), ids("a"))).as("late ack of the old holder")
                    .containsExactly(entry(id("a"), AckOutcome.LEASE_LOST));
            assertThat(snapshot("a").holder()).contains(workerB());
            assertThat(store.ack(workerB(), ids("a"))).containsExactly(entry(id("a"), ACKED));
        }

        @Test
        void outcomes_come_back_in_the_order_of_the_ids_given() {
            given(task("a"), task("b"), task("c"));
            consume(workerA(), 3);

            assertThat(store.ack(workerA(), ids("c", "unknown", "a"))).containsExactly(entry(id("c"), ACKED),
                    entry(id("unknown"), AckOutcome.LEASE_LOST), entry(id("a"), ACKED));
            assertThat(stateOf("b")).isEqualTo(IN_FLIGHT);
        }

        @Test
        void acking_the_last_held_task_of_an_ordered_partition_releases_its_lock() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 2);

            store.ack(workerA(), ids("o1", "o2"));

            assertThat(store.stats().lockedPartitions()).isZero();
            assertThat(consumeIds(workerB(), 10)).containsExactly("o3");
        }
    }

    // ======================================================================================== reject

    // ======================================================================================= ack and consume

    @Nested
    class AckAndConsume {
        @Test
        void the_acks_go_first_then_the_next_tasks_are_taken_in_queue_order() {
            given(task("a", Partition.of("p")), task("b", Partition.of("p")), task("c", Partition.of("p")));
            consume(workerA(), 1);

            AckedAndTaken result = store.ackAndConsume(workerA(), ids("a"), 2, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("a"), ACKED));
            assertThat(idsOf(result.taken())).containsExactly("b", "c");
            assertThat(store.get(id("a"))).isEmpty();
            assertThat(result.taken()).allSatisfy(lease -> {
                assertThat(lease.consumer()).isEqualTo(workerA());
                assertThat(lease.task().attempts()).isEqualTo(1);
                assertThat(lease.leasedAt()).isEqualTo(now());
            });
            assertThat(store.stats().ackedTotal()).isEqualTo(1);
            assertThat(store.stats().inFlight()).isEqualTo(2);
        }

        @Test
        void a_lock_the_acks_release_lets_the_same_call_take_the_ordered_partitions_next_task() {
            Partition account = Partition.ordered("account");
            given(task("first", account), task("second", account));
            assertThat(consumeIds(workerA(), 1)).containsExactly("first");
            assertThat(consumeIds(workerB(), 5)).as("locked while first is held").isEmpty();

            AckedAndTaken result = store.ackAndConsume(workerA(), ids("first"), 5, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("first"), ACKED));
            assertThat(idsOf(result.taken())).containsExactly("second");
            assertThat(snapshot("second").holder()).contains(workerA());
        }

        @Test
        void acks_of_tasks_not_held_are_lease_lost_and_the_take_goes_on() {
            given(task("a", Partition.of("p")), task("b", Partition.of("p")));
            consume(workerA(), 1);

            AckedAndTaken result = store.ackAndConsume(workerB(), ids("a", "unknown"), 5, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("a"), AckOutcome.LEASE_LOST),
                    entry(id("unknown"), AckOutcome.LEASE_LOST));
            assertThat(idsOf(result.taken())).containsExactly("b");
            assertThat(snapshot("a").holder()).contains(workerA());
        }

        @Test
        void an_id_named_twice_is_acked_once() {
            given(task("a", Partition.of("p")));
            consume(workerA(), 1);

            AckedAndTaken result = store.ackAndConsume(workerA(), ids("a", "a"), 1, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("a"), ACKED));
            assertThat(store.stats().ackedTotal()).isEqualTo(1);
        }

        @Test
        void with_max_zero_it_only_acks() {
            given(task("a", Partition.of("p")), task("b", Partition.of("p")));
            consume(workerA(), 1);

            AckedAndTaken result = store.ackAndConsume(workerA(), ids("a"), 0, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("a"), ACKED));
            assertThat(result.taken()).isEmpty();
            assertThat(stateOf("b")).isEqualTo(PENDING);
        }

        @Test
        void with_no_acks_it_is_a_consume() {
            given(task("a"));

            AckedAndTaken result = store.ackAndConsume(workerA(), List.of(), 3, NO_WAIT);

            assertThat(result.acks()).isEmpty();
            assertThat(idsOf(result.taken())).containsExactly("a");
        }

        @Test
        void a_paused_queue_still_takes_the_acks_and_delivers_nothing() {
            given(task("a", Partition.of("p")), task("b", Partition.of("p")));
            consume(workerA(), 1);
            store.pause();

            AckedAndTaken result = store.ackAndConsume(workerA(), ids("a"), 5, NO_WAIT);

            assertThat(result.acks()).containsExactly(entry(id("a"), ACKED));
            assertThat(result.taken()).isEmpty();
        }

        @Test
        void bad_input_is_refused_and_nothing_is_acked() {
            given(task("a"));
            consume(workerA(), 1);
            List<TaskId> withNull = new ArrayList<>(ids("a"));
            withNull.add(null);

            assertInvalid("max", () -> store.ackAndConsume(workerA(), ids("a"), -1, NO_WAIT));
            assertInvalid("max", () -> store.ackAndConsume(workerA(), ids("a"), TaskStore.MAX_CONSUME + 1, NO_WAIT));
            assertInvalid("wait", () -> store.ackAndConsume(workerA(), ids("a"), 1, Duration.ofMillis(-1)));
            assertInvalid("acks", () -> store.ackAndConsume(workerA(), null, 1, NO_WAIT));
            assertInvalid("acks[1]", () -> store.ackAndConsume(workerA(), withNull, 1, NO_WAIT));
            assertInvalid("consumer", () -> store.ackAndConsume(null, ids("a"), 1, NO_WAIT));

            assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
            assertThat(store.stats().ackedTotal()).isZero();
        }
    }

    @Nested
    class Reject {
        @Test
        void a_rejected_task_goes_back_with_its_reason_and_the_attempt_counted() {
            given(task("a"));
            consume(workerA(), 1);

            assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("bank timed out")))
                    .containsExactly(entry(id("a"), RETURNED));

            TaskSnapshot snapshot = snapshot("a");
            assertThat(snapshot.state()).isEqualTo(PENDING);
            assertThat(snapshot.holder()).isEmpty();
            assertThat(snapshot.task().attempts()).isEqualTo(1);
            assertThat(snapshot.task().lastError()).isEqualTo("bank timed out");
            assertThat(consume(workerB(), 1)).extracting(lease -> lease.task().attempts()).containsExactly(2);
        }

        @Test
        void reject_with_a_delay_is_honoured_in_regular_partitions_too() {
            given(task("a"));
            consume(workerA(), 1);

            store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(5), "later"));

            assertThat(stateOf("a")).isEqualTo(DELAYED);
            assertThat(snapshot("a").task().readyAt()).isEqualTo(now() + 5_000);
            assertThat(snapshot("a").task().dueAt()).isEqualTo(now() + 5_000);
            advance(Duration.ofSeconds(5).minusMillis(1));
            assertThat(consume(workerB(), 10)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerB(), 10)).containsExactly("a");
        }

        @Test
        void a_retry_delay_moves_a_regular_task_behind_tasks_due_before_it() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "a", "b", "c"));
            consume(workerA(), 1);

            store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(1), "later"));
            advance(Duration.ofSeconds(2));

            assertThat(consumeIds(workerB(), 3)).containsExactly("b", "c", "a");
        }

        @Test
        void a_task_rejected_at_max_attempts_becomes_a_dead_letter_with_the_reason() {
            configure(s -> s.maxAttempts(2));
            given(task("a"));
            consume(workerA(), 1);
            assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("broken"))).containsExactly(entry(id("a"), RETURNED));
            consume(workerA(), 1);
            advance(Duration.ofSeconds(1));

            assertThat(store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(9), "still broken")))
                    .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));

            TaskSnapshot snapshot = snapshot("a");
            assertThat(snapshot.state()).isEqualTo(DEAD);
            assertThat(snapshot.holder()).isEmpty();
            assertThat(snapshot.task().attempts()).isEqualTo(2);
            assertThat(snapshot.task().lastError()).isEqualTo("still broken");
            DeadLetterPage page = store.deadLetters(0, 10);
            assertThat(page.items()).hasSize(1);
            DeadLetter dead = page.items().get(0);
            assertThat(dead.id()).isEqualTo(id("a"));
            assertThat(dead.reason()).isEqualTo("still broken");
            assertThat(dead.attempts()).isEqualTo(2);
            assertThat(dead.deadAt()).isEqualTo(now());
            assertThat(store.stats().inFlight()).isZero();
        }

        @Test
        void the_default_max_attempts_is_five() {
            given(task("a"));
            for (int attempt = 1; attempt <= 4; attempt++) {
                consume(workerA(), 1);
                assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no"))).as("attempt %d", attempt)
                        .containsExactly(entry(id("a"), RETURNED));
            }
            consume(workerA(), 1);

            assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no")))
                    .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
        }

        @Test
        void reject_can_block_the_partition_in_the_same_step() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "a", "b"));
            given(task("elsewhere"));
            consume(workerA(), 1);

            store.reject(workerA(), ids("a"), Rejection.rateLimited(Duration.ofSeconds(10), "429 from the API"));

            assertThat(store.stats().blockedPartitions()).isEqualTo(1);
            assertThat(consumeIds(workerB(), 10)).containsExactly("elsewhere");
            advance(Duration.ofSeconds(10).minusMillis(1));
            assertThat(consume(workerB(), 10)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerB(), 10)).containsExactly("b", "a");
        }

        @Test
        void a_blocking_reject_keeps_a_longer_block_already_in_force() {
            Partition regular = regularPartition();
            given(task("a", regular));
            consume(workerA(), 1);
            store.blockPartition(regular, Duration.ofSeconds(60));

            store.reject(workerA(), ids("a"), new Rejection(Duration.ZERO, "slow down", Duration.ofSeconds(10)));

            advance(Duration.ofSeconds(10));
            assertThat(consume(workerB(), 10)).isEmpty();
            advance(Duration.ofSeconds(50));
            assertThat(consumeIds(workerB(), 10)).containsExactly("a");
        }

        @Test
        void rejecting_a_task_not_held_is_lease_lost_and_changes_nothing() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "held", "waiting"));
            consume(workerA(), 1);

            Map<TaskId, RejectOutcome> outcomes = store.reject(workerB(), ids("held", "waiting", "unknown"),
                    Rejection.rateLimited(Duration.ofSeconds(10), "not mine"));

            assertThat(outcomes).containsExactly(entry(id("held"), RejectOutcome.LEASE_LOST),
                    entry(id("waiting"), RejectOutcome.LEASE_LOST), entry(id("unknown"), RejectOutcome.LEASE_LOST));
            assertThat(snapshot("held").holder()).contains(workerA());
            assertThat(snapshot("held").task().attempts()).isEqualTo(1);
            assertThat(snapshot("held").task().lastError()).isNull();
            assertThat(snapshot("waiting").task().lastError()).isNull();
            assertThat(store.stats().blockedPartitions()).as("only held tasks block their partition").isZero();
        }

        @Test
        void outcomes_come_back_in_the_order_of_the_ids_given() {
            given(task("a"), task("b"));
            consume(workerA(), 2);

            assertThat(store.reject(workerA(), ids("b", "unknown", "a"), Rejection.retryNow("no"))).containsExactly(
                    entry(id("b"), RETURNED), entry(id("unknown"), RejectOutcome.LEASE_LOST), entry(id("a"), RETURNED));
        }

        @Test
        void rejecting_the_last_held_task_of_an_ordered_partition_releases_its_lock() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);

            store.reject(workerA(), ids("o1"), Rejection.retryNow("no"));

            assertThat(store.stats().lockedPartitions()).isZero();
            assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2");
        }
    }

    // ========================================================================================== fail

    @Nested
    class Fail {
        @Test
        void a_failed_task_goes_straight_to_the_dead_letters_with_the_reason() {
            given(task("a"));
            consume(workerA(), 1);
            advanceMillis(3);

            assertThat(store.fail(workerA(), ids("a"), "cannot parse payload"))
                    .containsExactly(entry(id("a"), FailOutcome.DEAD_LETTERED));

            TaskSnapshot snapshot = snapshot("a");
            assertThat(snapshot.state()).isEqualTo(DEAD);
            assertThat(snapshot.holder()).isEmpty();
            assertThat(snapshot.task().attempts()).isEqualTo(1);
            assertThat(snapshot.task().lastError()).isEqualTo("cannot parse payload");
            assertThat(store.deadLetters(0, 10).items()).singleElement().satisfies(dead -> {
                assertThat(dead.id()).isEqualTo(id("a"));
                assertThat(dead.reason()).isEqualTo("cannot parse payload");
                assertThat(dead.attempts()).isEqualTo(1);
                assertThat(dead.deadAt()).isEqualTo(now());
            });
            QueueStats stats = store.stats();
            assertThat(stats.dead()).isEqualTo(1);
            assertThat(stats.inFlight()).isZero();
            assertThat(stats.deadLetteredTotal()).isEqualTo(1);
        }

        @Test
        void failing_a_task_not_held_is_lease_lost_and_changes_nothing() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "held", "waiting"));
            consume(workerA(), 1);

            assertThat(store.fail(workerB(), ids("held", "waiting", "unknown"), "not mine")).containsExactly(
                    entry(id("held"), FailOutcome.LEASE_LOST), entry(id("waiting"), FailOutcome.LEASE_LOST),
                    entry(id("unknown"), FailOutcome.LEASE_LOST));

            assertThat(snapshot("held").holder()).contains(workerA());
            assertThat(stateOf("waiting")).isEqualTo(PENDING);
            assertThat(store.stats().dead()).isZero();
        }

        @Test
        void failing_a_task_of_an_ordered_batch_keeps_the_rest_held_in_order() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 3);

            assertThat(store.fail(workerA(), ids("o1"), "poison")).containsExactly(entry(id("o1"), FailOutcome.DEAD_LETTERED));

            assertThat(snapshot("o2").holder()).contains(workerA());
            assertThat(snapshot("o3").holder()).contains(workerA());
            assertThat(store.ack(workerA(), ids("o2"))).containsExactly(entry(id("o2"), ACKED));
            assertThat(consume(workerB(), 10)).as("o3 still holds the lock").isEmpty();
            assertThat(store.ack(workerA(), ids("o3"))).containsExactly(entry(id("o3"), ACKED));
            assertThat(store.stats().lockedPartitions()).isZero();
        }

        @Test
        void failing_the_last_held_task_of_an_ordered_partition_releases_its_lock() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);

            store.fail(workerA(), ids("o1"), "poison");

            assertThat(consumeIds(workerB(), 10)).containsExactly("o2");
        }
    }

    // ======================================================================================= release

    @Nested
    class Release {
        @Test
        void a_released_task_is_back_at_its_position_and_the_attempt_does_not_count() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "a", "b"));
            consume(workerA(), 1);
            advance(Duration.ofSeconds(1));

            assertThat(store.release(workerA(), ids("a"))).containsExactly(entry(id("a"), ReleaseOutcome.RELEASED));

            TaskSnapshot snapshot = snapshot("a");
            assertThat(snapshot.state()).isEqualTo(PENDING);
            assertThat(snapshot.holder()).isEmpty();
            assertThat(snapshot.task().attempts()).isZero();
            assertThat(snapshot.task().dueAt()).isEqualTo(snapshot.task().publishedAt());
            assertThat(snapshot.task().readyAt()).isEqualTo(snapshot.task().publishedAt());
            List<Lease> leases = consume(workerB(), 2);
            assertThat(idsOf(leases)).containsExactly("a", "b");
            assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(1, 1);
        }

        @Test
        void releasing_an_ordered_task_releases_the_rest_of_its_batch_too() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4"));
            consume(workerA(), 4);
            store.ack(workerA(), ids("o1"));

            assertThat(store.release(workerA(), ids("o3"))).containsOnly(entry(id("o3"), ReleaseOutcome.RELEASED),
                    entry(id("o4"), ReleaseOutcome.RELEASED));

            assertThat(List.of("o3", "o4")).extracting(TaskStoreCompatibilityKit.this::attemptsOf).containsExactly(0, 0);
            assertThat(snapshot("o2").holder()).contains(workerA());
            assertThat(consume(workerB(), 10)).as("o2 still holds the lock").isEmpty();
            store.ack(workerA(), ids("o2"));
            assertThat(consumeIds(workerB(), 10)).containsExactly("o3", "o4");
        }

        @Test
        void releasing_a_whole_ordered_batch_unlocks_the_partition() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 2);

            store.release(workerA(), ids("o1", "o2"));

            assertThat(store.stats().lockedPartitions()).isZero();
            assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2");
        }

        @Test
        void releasing_a_task_not_held_is_lease_lost() {
            given(task("held"), task("waiting"));
            consume(workerA(), 1);

            assertThat(store.release(workerB(), ids("held", "waiting", "unknown"))).containsExactly(
                    entry(id("held"), ReleaseOutcome.LEASE_LOST), entry(id("waiting"), ReleaseOutcome.LEASE_LOST),
                    entry(id("unknown"), ReleaseOutcome.LEASE_LOST));
            assertThat(snapshot("held").holder()).contains(workerA());
            assertThat(snapshot("held").task().attempts()).isEqualTo(1);
            assertThat(snapshot("waiting").task().attempts()).isZero();
        }
    }

    // =============================================================================== block partition

    @Nested
    class BlockPartition {
        @Test
        void a_blocked_partition_delivers_nothing_until_the_block_expires() {
            Partition regular = regularPartition();
            given(task("a", regular));

            store.blockPartition(regular, Duration.ofSeconds(10));

            assertThat(stateOf("a")).as("the task itself is due").isEqualTo(PENDING);
            assertThat(consume(workerA(), 10)).isEmpty();
            advance(Duration.ofSeconds(10).minusMillis(1));
            assertThat(consume(workerA(), 10)).isEmpty();
            advanceMillis(1);
            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }

        @Test
        void blocking_one_partition_leaves_the_others_served() {
            Partition blocked = regularPartition();
            given(task("blocked", blocked), task("free"), task("free-ordered", orderedPartition()));

            store.blockPartition(blocked, Duration.ofMinutes(1));

            assertThat(consumeIds(workerA(), 10)).containsExactly("free", "free-ordered");
        }

        @Test
        void blocking_an_ordered_partition_holds_back_its_head() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));

            store.blockPartition(ordered, Duration.ofSeconds(10));

            assertThat(consume(workerA(), 10)).isEmpty();
            advance(Duration.ofSeconds(10));
            assertThat(consumeIds(workerA(), 10)).containsExactly("o1", "o2");
        }

        @Test
        void unblocking_lifts_the_block_at_once() {
            Partition regular = regularPartition();
            given(task("a", regular));
            store.blockPartition(regular, Duration.ofMinutes(10));

            store.unblockPartition(regular);

            assertThat(store.stats().blockedPartitions()).isZero();
            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }

        @Test
        void a_partition_without_tasks_can_be_blocked_ahead_of_time() {
            Partition regular = regularPartition();
            store.blockPartition(regular, Duration.ofSeconds(10));
            given(task("a", regular));

            assertThat(store.stats().blockedPartitions()).isEqualTo(1);
            assertThat(consume(workerA(), 10)).isEmpty();
            advance(Duration.ofSeconds(10));
            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }

        @Test
        void a_new_block_replaces_the_existing_one() {
            Partition regular = regularPartition();
            given(task("a", regular));
            store.blockPartition(regular, Duration.ofSeconds(60));

            store.blockPartition(regular, Duration.ofSeconds(10));

            advance(Duration.ofSeconds(10));
            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }

        @Test
        void a_block_leaves_tasks_already_in_flight_with_their_consumer() {
            Partition regular = regularPartition();
            given(task("a", regular));
            consume(workerA(), 1);

            store.blockPartition(regular, Duration.ofSeconds(10));

            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
        }

        @Test
        void unblocking_a_partition_that_is_not_blocked_does_nothing() {
            Partition regular = regularPartition();
            given(task("a", regular));

            store.unblockPartition(regular);

            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }
    }

    // ===================================================================================== heartbeat

    @Nested
    class Heartbeat {
        @Test
        void a_heartbeat_registers_a_live_consumer_until_its_ttl_passes() {
            store.heartbeat(workerA(), Duration.ofSeconds(10));

            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advance(Duration.ofSeconds(10).minusMillis(1));
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advanceMillis(1);
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void a_heartbeat_keeps_a_consumer_and_its_tasks_alive() {
            configure(s -> s.heartbeatTtl(Duration.ofSeconds(10)));
            given(task("a"));
            consume(workerA(), 1);
            advance(Duration.ofSeconds(8));

            store.heartbeat(workerA(), Duration.ofSeconds(10));

            advance(Duration.ofSeconds(8));
            assertThat(store.reclaim().returned()).isZero();
            assertThat(snapshot("a").holder()).contains(workerA());
            advance(Duration.ofSeconds(2));
            assertThat(store.reclaim().returned()).isEqualTo(1);
        }

        @Test
        void a_heartbeat_sets_the_ttl_even_when_shorter_than_before() {
            store.heartbeat(workerA(), Duration.ofMinutes(10));

            store.heartbeat(workerA(), Duration.ofSeconds(1));

            advance(Duration.ofSeconds(1));
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void each_consumer_has_its_own_heartbeat() {
            store.heartbeat(workerA(), Duration.ofSeconds(10));
            store.heartbeat(workerB(), Duration.ofSeconds(20));

            assertThat(store.stats().liveConsumers()).isEqualTo(2);
            advance(Duration.ofSeconds(10));
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
        }
    }

    // ======================================================================================= reclaim

    @Nested
    class Reclaim {
        @Test
        void reclaim_returns_every_in_flight_task_of_a_dead_consumer_in_order_with_attempts_kept() {
            Partition ordered = orderedPartition();
            Partition busy = regularPartition();
            Partition quiet = regularPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            given(tasksIn(busy, "b1", "b2", "b3"));
            given(task("q1", quiet));
            assertThat(consumeIds(workerA(), 6)).containsExactlyInAnyOrder("o1", "o2", "o3", "b1", "b2", "q1");
            letDefaultHeartbeatsExpire();

            ReclaimReport report = store.reclaim();

            assertThat(report).isEqualTo(new ReclaimReport(List.of(workerA()), 6, 0, 0));
            assertThat(List.of("o1", "o2", "o3", "b1", "b2", "q1")).allSatisfy(id -> {
                assertThat(stateOf(id)).isEqualTo(PENDING);
                assertThat(attemptsOf(id)).isEqualTo(1);
            });
            QueueStats stats = store.stats();
            assertThat(stats.inFlight()).isZero();
            assertThat(stats.lockedPartitions()).isZero();
            assertThat(stats.ready()).isEqualTo(7);
            List<Lease> leases = consume(workerB(), 10);
            assertThat(leasesIn(leases, ordered)).containsExactly("o1", "o2", "o3");
            assertThat(leasesIn(leases, busy)).as("original positions, ahead of b3").containsExactly("b1", "b2", "b3");
            assertThat(leasesIn(leases, quiet)).containsExactly("q1");
        }

        @Test
        void reclaim_leaves_live_consumers_alone() {
            given(task("a"));
            consume(workerA(), 1);
            advance(DEFAULT_TTL.minusMillis(1));

            assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
            assertThat(snapshot("a").holder()).contains(workerA());
        }

        @Test
        void reclaim_returns_tasks_to_their_original_positions() {
            Partition regular = regularPartition();
            given(tasksIn(regular, "a", "b", "c"));
            consume(workerA(), 1);
            consume(workerB(), 1);
            store.heartbeat(workerB(), Duration.ofMinutes(10));
            letDefaultHeartbeatsExpire();

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0));

            assertThat(consumeIds(workerC(), 10)).containsExactly("a", "c");
            assertThat(snapshot("b").holder()).contains(workerB());
        }

        @Test
        void reclaim_releases_the_ordered_lock_of_a_dead_consumer() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            consume(workerA(), 2);
            store.heartbeat(workerB(), Duration.ofMinutes(10));
            assertThat(consume(workerB(), 10)).isEmpty();
            letDefaultHeartbeatsExpire();

            store.reclaim();

            assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
        }

        @Test
        void a_task_that_keeps_killing_its_consumers_reaches_the_dead_letters() {
            given(task("poison"));
            for (int round = 1; round < QueueSettings.DEFAULT_MAX_ATTEMPTS; round++) {
                assertThat(consumeIds(worker("victim-" + round), 1)).containsExactly("poison");
                letDefaultHeartbeatsExpire();
                assertThat(store.reclaim()).as("round %d", round)
                        .isEqualTo(new ReclaimReport(List.of(worker("victim-" + round)), 1, 0, 0));
            }
            ConsumerId last = worker("victim-" + QueueSettings.DEFAULT_MAX_ATTEMPTS);
            consume(last, 1);
            letDefaultHeartbeatsExpire();

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(last), 0, 1, 0));

            assertThat(stateOf("poison")).isEqualTo(DEAD);
            assertThat(attemptsOf("poison")).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
            assertThat(store.deadLetters(0, 10).items()).singleElement()
                    .satisfies(dead -> assertThat(dead.reason()).isEqualTo("consumer " + last + " stopped heartbeating"));
            assertThat(store.stats().deadLetteredTotal()).isEqualTo(1);
        }

        @Test
        void a_registered_consumer_holding_nothing_is_declared_dead_and_forgotten() {
            store.heartbeat(workerA(), Duration.ofSeconds(1));
            advance(Duration.ofSeconds(1));

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 0, 0, 0));
            assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
        }

        @Test
        void a_second_reclaim_finds_nothing_more() {
            given(task("a"));
            consume(workerA(), 1);
            letDefaultHeartbeatsExpire();
            store.reclaim();

            assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
            assertThat(attemptsOf("a")).isEqualTo(1);
        }

        @Test
        void a_task_in_flight_longer_than_the_processing_timeout_is_taken_back_from_a_live_consumer() {
            configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
            given(task("hung"));
            consume(workerA(), 1);
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            advance(Duration.ofSeconds(60).minusMillis(1));
            assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
            advanceMillis(1);

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 1, 0, 1));

            assertThat(stateOf("hung")).isEqualTo(PENDING);
            assertThat(attemptsOf("hung")).isEqualTo(1);
            assertThat(store.ack(workerA(), ids("hung"))).containsExactly(entry(id("hung"), AckOutcome.LEASE_LOST));
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
        }

        @Test
        void a_timed_out_task_out_of_attempts_is_dead_lettered_with_the_timeout_as_reason() {
            configure(s -> s.processingTimeout(Duration.ofSeconds(60)).maxAttempts(1));
            given(task("hung"));
            consume(workerA(), 1);
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            advance(Duration.ofSeconds(60));

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 0, 1, 1));

            assertThat(store.deadLetters(0, 10).items()).singleElement()
                    .satisfies(dead -> assertThat(dead.reason()).isEqualTo("processing timed out after 60000 ms"));
        }

        @Test
        void a_timed_out_ordered_task_takes_the_rest_of_its_batch_back_with_it() {
            configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3", "o4"));
            consume(workerA(), 4);
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            advance(Duration.ofSeconds(10));
            store.ack(workerA(), ids("o1"));
            advance(Duration.ofSeconds(50));

            ReclaimReport report = store.reclaim();

            // How many of the batch count as timedOut is left open by docs/semantics.md, so it is not asserted.
            assertThat(report.deadConsumers()).isEmpty();
            assertThat(report.returned()).isEqualTo(3);
            assertThat(report.deadLettered()).isZero();
            assertThat(List.of("o2", "o3", "o4")).extracting(TaskStoreCompatibilityKit.this::attemptsOf)
                    .as("the hung task's attempt counts; the ones after it never ran").containsExactly(1, 0, 0);
            assertThat(store.stats().lockedPartitions()).isZero();
            assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o3", "o4");
        }

        @Test
        void the_hung_task_of_a_timed_out_ordered_batch_is_its_first_by_key_not_by_publish_order() {
            configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
            Partition ordered = orderedPartition();
            given(task("published-first", ordered), task("urgent", ordered).priority(5));
            assertThat(consumeIds(workerA(), 2)).containsExactly("urgent", "published-first");
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            advance(Duration.ofSeconds(60));

            assertThat(store.reclaim().returned()).isEqualTo(2);

            assertThat(attemptsOf("urgent")).isEqualTo(1);
            assertThat(attemptsOf("published-first")).as("never ran").isZero();
        }

        @Test
        void concurrent_reclaims_return_each_task_exactly_once() throws Exception {
            given(task("a"), task("b"), task("c"));
            consume(workerA(), 3);
            letDefaultHeartbeatsExpire();
            int reapers = 4;
            ExecutorService pool = Executors.newFixedThreadPool(reapers);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<ReclaimReport>> reports = new ArrayList<>();
                for (int i = 0; i < reapers; i++) {
                    reports.add(pool.submit(() -> {
                        start.await();
                        return store.reclaim();
                    }));
                }
                start.countDown();

                int returned = 0;
                List<ConsumerId> dead = new ArrayList<>();
                for (Future<ReclaimReport> report : reports) {
                    returned += report.get(30, TimeUnit.SECONDS).returned();
                    dead.addAll(report.get().deadConsumers());
                }

                assertThat(returned).isEqualTo(3);
                assertThat(dead).containsExactly(workerA());
                assertThat(List.of("a", "b", "c")).extracting(TaskStoreCompatibilityKit.this::attemptsOf).containsOnly(1);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ======================================================================================== cancel

    @Nested
    class Cancel {
        @Test
        void cancelling_a_waiting_task_deletes_it() {
            given(task("pending"), task("delayed").delayedBy(Duration.ofMinutes(1)));

            assertThat(store.cancel(ids("pending", "delayed"))).containsExactly(entry(id("pending"), CancelOutcome.CANCELLED),
                    entry(id("delayed"), CancelOutcome.CANCELLED));

            assertThat(store.get(id("pending"))).isEmpty();
            assertThat(store.get(id("delayed"))).isEmpty();
            QueueStats stats = store.stats();
            assertThat(stats.ready()).isZero();
            assertThat(stats.delayed()).isZero();
            assertThat(stats.activePartitions()).isZero();
            advance(Duration.ofMinutes(1));
            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void cancelling_a_task_in_flight_is_refused_and_changes_nothing() {
            given(task("a"));
            consume(workerA(), 1);

            assertThat(store.cancel(ids("a"))).containsExactly(entry(id("a"), CancelOutcome.IN_FLIGHT));

            assertThat(snapshot("a").holder()).contains(workerA());
            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
        }

        @Test
        void cancelling_a_dead_letter_deletes_it() {
            given(task("a"));
            consume(workerA(), 1);
            store.fail(workerA(), ids("a"), "broken");

            assertThat(store.cancel(ids("a"))).containsExactly(entry(id("a"), CancelOutcome.CANCELLED));

            assertThat(store.get(id("a"))).isEmpty();
            assertThat(store.deadLetters(0, 10).total()).isZero();
            assertThat(store.stats().dead()).isZero();
        }

        @Test
        void cancelling_an_unknown_id_is_unknown() {
            assertThat(store.cancel(ids("nobody"))).containsExactly(entry(id("nobody"), CancelOutcome.UNKNOWN));
        }

        @Test
        void outcomes_come_back_in_the_order_of_the_ids_given() {
            given(task("held"), task("waiting"));
            consume(workerA(), 1);

            assertThat(store.cancel(ids("waiting", "nobody", "held"))).containsExactly(
                    entry(id("waiting"), CancelOutcome.CANCELLED), entry(id("nobody"), CancelOutcome.UNKNOWN),
                    entry(id("held"), CancelOutcome.IN_FLIGHT));
        }

        @Test
        void a_cancelled_id_may_be_published_again() {
            given(task("a"));
            store.cancel(ids("a"));

            assertThat(store.publish(List.of(task("a").build()))).containsExactly(receipt("a", CREATED));
        }

        @Test
        void cancelling_an_ordered_head_lets_the_next_task_lead() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofHours(1), "backoff"));

            store.cancel(ids("o1"));

            assertThat(consumeIds(workerB(), 10)).containsExactly("o2");
        }
    }

    // =========================================================================================== get

    @Nested
    class Get {
        @Test
        void a_due_waiting_task_is_pending() {
            given(task("a"));

            TaskSnapshot snapshot = snapshot("a");

            assertThat(snapshot.state()).isEqualTo(PENDING);
            assertThat(snapshot.holder()).isEmpty();
        }

        @Test
        void a_task_not_yet_ready_is_delayed_and_pending_once_ready() {
            given(task("a").delayedBy(Duration.ofSeconds(5)));

            assertThat(stateOf("a")).isEqualTo(DELAYED);
            advance(Duration.ofSeconds(5).minusMillis(1));
            assertThat(stateOf("a")).isEqualTo(DELAYED);
            advanceMillis(1);
            assertThat(stateOf("a")).isEqualTo(PENDING);
        }

        @Test
        void a_task_in_flight_names_its_holder() {
            given(task("a"));
            consume(workerB(), 1);

            TaskSnapshot snapshot = snapshot("a");

            assertThat(snapshot.state()).isEqualTo(IN_FLIGHT);
            assertThat(snapshot.holder()).contains(workerB());
        }

        @Test
        void a_dead_letter_is_dead() {
            given(task("a"));
            consume(workerA(), 1);
            store.fail(workerA(), ids("a"), "broken");

            TaskSnapshot snapshot = snapshot("a");

            assertThat(snapshot.state()).isEqualTo(DEAD);
            assertThat(snapshot.holder()).isEmpty();
        }

        @Test
        void a_ready_task_behind_a_delayed_ordered_head_is_pending() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofMinutes(1), "backoff"));

            assertThat(stateOf("o1")).isEqualTo(DELAYED);
            assertThat(stateOf("o2")).isEqualTo(PENDING);
        }

        @Test
        void acked_cancelled_and_unknown_tasks_are_absent() {
            given(task("acked"), task("cancelled"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("acked"));
            store.cancel(ids("cancelled"));

            assertThat(store.get(id("acked"))).isEmpty();
            assertThat(store.get(id("cancelled"))).isEmpty();
            assertThat(store.get(id("unknown"))).isEmpty();
        }
    }

    // ================================================================================== dead letters

    @Nested
    class DeadLetters {
        /**
         * Publishes, takes and fails the tasks one by one, in the order given, all in the same
         * millisecond. Call it while nothing else waits, so each consume takes the task just published.
         */
        private void deadLetters(String... ids) {
            for (String id : ids) {
                given(task(id));
                consume(workerA(), 1);
                assertThat(store.fail(workerA(), ids(id), "reason of " + id)).containsValue(FailOutcome.DEAD_LETTERED);
            }
        }

        @Test
        void dead_letters_are_listed_oldest_first_with_reason_attempts_and_time() {
            configure(s -> s.maxAttempts(1));
            given(task("first"));
            consume(workerA(), 1);
            store.fail(workerA(), ids("first"), "bad payload");
            long firstDiedAt = now();
            advance(Duration.ofSeconds(1));
            given(task("second"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("second"), Rejection.retryNow("gave up"));

            DeadLetterPage page = store.deadLetters(0, 10);

            assertThat(page.total()).isEqualTo(2);
            assertThat(page.offset()).isZero();
            assertThat(page.items()).extracting(dead -> dead.id().value()).containsExactly("first", "second");
            assertThat(page.items()).extracting(DeadLetter::reason).containsExactly("bad payload", "gave up");
            assertThat(page.items()).extracting(DeadLetter::attempts).containsExactly(1, 1);
            assertThat(page.items()).extracting(DeadLetter::deadAt).containsExactly(firstDiedAt, now());
            assertThat(page.items().get(0).task()).isEqualTo(snapshot("first").task());
        }

        @Test
        void dead_letters_of_the_same_millisecond_are_listed_in_the_order_they_died() {
            deadLetters("z", "a", "m");

            assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("z", "a", "m");
        }

        @Test
        void dead_letters_are_paged_by_offset_and_limit() {
            deadLetters("d1", "d2", "d3", "d4", "d5");

            assertThat(store.deadLetters(0, 2).items()).extracting(dead -> dead.id().value()).containsExactly("d1", "d2");
            assertThat(store.deadLetters(2, 2).items()).extracting(dead -> dead.id().value()).containsExactly("d3", "d4");
            DeadLetterPage last = store.deadLetters(4, 2);
            assertThat(last.items()).extracting(dead -> dead.id().value()).containsExactly("d5");
            assertThat(last.total()).isEqualTo(5);
            assertThat(last.offset()).isEqualTo(4);
            DeadLetterPage beyond = store.deadLetters(5, 2);
            assertThat(beyond.items()).isEmpty();
            assertThat(beyond.total()).isEqualTo(5);
        }

        @Test
        void redriving_a_dead_letter_sends_it_back_with_attempts_reset() {
            given(task("a").priority(3));
            consume(workerA(), 1);
            store.fail(workerA(), ids("a"), "downstream was down");
            Task dead = snapshot("a").task();
            advance(Duration.ofMinutes(5));

            assertThat(store.redrive(ids("a"))).containsExactly(entry(id("a"), RedriveOutcome.REDRIVEN));

            TaskSnapshot snapshot = snapshot("a");
            assertThat(snapshot.state()).isEqualTo(PENDING);
            assertThat(snapshot.task().attempts()).isZero();
            assertThat(snapshot.task().dueAt()).isEqualTo(now());
            assertThat(snapshot.task().readyAt()).isEqualTo(now());
            assertThat(snapshot.task().priority()).isEqualTo(dead.priority());
            assertThat(snapshot.task().seq()).isEqualTo(dead.seq());
            assertThat(store.deadLetters(0, 10).total()).isZero();
            assertThat(store.stats().dead()).isZero();
            assertThat(consume(workerB(), 1)).extracting(lease -> lease.task().attempts()).containsExactly(1);
        }

        @Test
        void a_redriven_task_is_due_now_and_queues_behind_tasks_due_earlier() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);
            store.fail(workerA(), ids("o1"), "broken");
            advance(Duration.ofSeconds(1));

            store.redrive(ids("o1"));

            assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o1");
        }

        @Test
        void redriving_an_id_that_is_not_a_dead_letter_is_unknown() {
            deadLetters("dead");
            given(task("waiting"));

            assertThat(store.redrive(ids("waiting", "nobody", "dead"))).containsExactly(
                    entry(id("waiting"), RedriveOutcome.UNKNOWN), entry(id("nobody"), RedriveOutcome.UNKNOWN),
                    entry(id("dead"), RedriveOutcome.REDRIVEN));
            assertThat(attemptsOf("waiting")).isZero();
        }

        @Test
        void redrive_all_sends_every_dead_letter_back() {
            deadLetters("d1", "d2", "d3");

            assertThat(store.redriveAll()).isEqualTo(3);

            assertThat(store.deadLetters(0, 10).total()).isZero();
            assertThat(List.of("d1", "d2", "d3")).extracting(TaskStoreCompatibilityKit.this::stateOf).containsOnly(PENDING);
            assertThat(store.redriveAll()).isZero();
        }

        @Test
        void purging_named_dead_letters_deletes_only_those() {
            deadLetters("d1", "d2", "d3");
            given(task("waiting"));

            assertThat(store.purgeDeadLetters(ids("d1", "d3", "waiting", "nobody"))).isEqualTo(2);

            assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("d2");
            assertThat(store.get(id("d1"))).isEmpty();
            assertThat(stateOf("waiting")).isEqualTo(PENDING);
            assertThat(store.stats().dead()).isEqualTo(1);
        }

        @Test
        void purging_all_deletes_every_dead_letter_for_good() {
            deadLetters("d1", "d2");

            assertThat(store.purgeAllDeadLetters()).isEqualTo(2);

            assertThat(store.deadLetters(0, 10).total()).isZero();
            assertThat(store.get(id("d1"))).isEmpty();
            assertThat(store.stats().dead()).isZero();
            assertThat(store.stats().deadLetteredTotal()).as("a total, not a count").isEqualTo(2);
            assertThat(store.publish(List.of(task("d1").build()))).containsExactly(receipt("d1", CREATED));
        }
    }

    // ========================================================================================= stats

    @Nested
    class Stats {
        @Test
        void a_new_queue_is_empty() {
            assertThat(store.stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false));
        }

        @Test
        void ready_and_delayed_count_waiting_tasks_by_their_own_readiness() {
            Partition ordered = orderedPartition();
            Partition blocked = regularPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));
            given(task("blocked", blocked), task("plain"), task("later").delayedBy(Duration.ofSeconds(5)));
            store.blockPartition(blocked, Duration.ofMinutes(1));

            QueueStats stats = store.stats();

            assertThat(stats.ready()).as("o2, blocked, plain").isEqualTo(3);
            assertThat(stats.delayed()).as("o1, later").isEqualTo(2);
            advance(Duration.ofSeconds(5));
            assertThat(store.stats().ready()).isEqualTo(4);
            assertThat(store.stats().delayed()).isEqualTo(1);
        }

        @Test
        void in_flight_counts_tasks_held_by_consumers() {
            given(task("a"), task("b"), task("c"));
            consume(workerA(), 1);
            consume(workerB(), 1);

            assertThat(store.stats().inFlight()).isEqualTo(2);
            assertThat(store.stats().ready()).isEqualTo(1);
        }

        @Test
        void dead_counts_dead_letters() {
            given(task("a"), task("b"));
            consume(workerA(), 2);
            store.fail(workerA(), ids("a", "b"), "broken");

            assertThat(store.stats().dead()).isEqualTo(2);
            store.purgeDeadLetters(ids("a"));
            assertThat(store.stats().dead()).isEqualTo(1);
        }

        @Test
        void active_partitions_count_partitions_with_waiting_tasks() {
            Partition regular = regularPartition();
            Partition ordered = orderedPartition();
            given(tasksIn(regular, "r1", "r2"));
            given(tasksIn(ordered, "o1"));
            given(task("later").delayedBy(Duration.ofMinutes(1)));
            assertThat(store.stats().activePartitions()).isEqualTo(3);

            consume(workerA(), 10);

            assertThat(store.stats().activePartitions()).as("only 'later' still waits").isEqualTo(1);
        }

        @Test
        void locked_partitions_count_ordered_partitions_held() {
            Partition first = orderedPartition();
            Partition second = orderedPartition();
            given(tasksIn(first, "f1", "f2"));
            given(tasksIn(second, "s1"));
            given(task("regular"));
            consume(workerA(), 10);

            assertThat(store.stats().lockedPartitions()).isEqualTo(2);
            store.ack(workerA(), ids("f1", "f2"));
            assertThat(store.stats().lockedPartitions()).isEqualTo(1);
        }

        @Test
        void blocked_partitions_count_blocks_in_force_only() {
            store.blockPartition(regularPartition(), Duration.ofSeconds(10));
            Partition longer = regularPartition();
            store.blockPartition(longer, Duration.ofSeconds(20));
            store.blockPartition(orderedPartition(), Duration.ofSeconds(30));

            assertThat(store.stats().blockedPartitions()).isEqualTo(3);
            advance(Duration.ofSeconds(10));
            assertThat(store.stats().blockedPartitions()).isEqualTo(2);
            store.unblockPartition(longer);
            assertThat(store.stats().blockedPartitions()).isEqualTo(1);
        }

        @Test
        void live_consumers_count_fresh_heartbeats() {
            store.heartbeat(workerA(), Duration.ofSeconds(10));
            consume(workerB(), 1);

            assertThat(store.stats().liveConsumers()).isEqualTo(2);
            advance(Duration.ofSeconds(10));
            assertThat(store.stats().liveConsumers()).isEqualTo(1);
            advance(DEFAULT_TTL);
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void oldest_due_age_is_how_long_the_longest_waiting_due_task_has_been_due() {
            Partition regular = regularPartition();
            given(task("a", regular));
            advance(Duration.ofSeconds(3));
            given(task("b", regular), task("later").delayedBy(Duration.ofSeconds(1)));

            assertThat(store.stats().oldestDueAgeMillis()).isEqualTo(3_000);
            consume(workerA(), 1);
            assertThat(store.stats().oldestDueAgeMillis()).as("b was just published").isZero();
            advance(Duration.ofSeconds(2));
            assertThat(store.stats().oldestDueAgeMillis()).as("b due 2 s ago, later due 1 s ago").isEqualTo(2_000);
            consume(workerA(), 10);
            assertThat(store.stats().oldestDueAgeMillis()).isZero();
        }

        @Test
        void oldest_due_age_counts_from_when_a_task_became_ready() {
            given(task("published-delayed").delayedBy(Duration.ofSeconds(10)));
            Partition ordered = orderedPartition();
            given(task("retried", ordered));
            consume(workerA(), 1);
            store.reject(workerA(), ids("retried"), Rejection.retryAfter(Duration.ofSeconds(20), "backoff"));
            advance(Duration.ofSeconds(15));

            assertThat(store.stats().oldestDueAgeMillis()).as("ready 5 s ago, published 15 s ago").isEqualTo(5_000);
            consume(workerA(), 1);
            advance(Duration.ofSeconds(10));
            assertThat(store.stats().oldestDueAgeMillis()).as("ready 5 s ago, its dueAt 25 s ago").isEqualTo(5_000);
        }

        @Test
        void totals_count_creations_acks_and_dead_letterings_since_the_queue_began() {
            given(task("a"), task("b"), task("c"));
            store.publish(List.of(task("a").build()));
            consume(workerA(), 3);
            store.ack(workerA(), ids("a"));
            store.ack(workerA(), ids("a"));
            store.fail(workerA(), ids("b"), "broken");
            store.release(workerA(), ids("c"));
            store.cancel(ids("c"));
            store.redrive(ids("b"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("b"));

            QueueStats stats = store.stats();

            assertThat(stats.publishedTotal()).isEqualTo(3);
            assertThat(stats.ackedTotal()).isEqualTo(2);
            assertThat(stats.deadLetteredTotal()).isEqualTo(1);
        }

        @Test
        void paused_tells_whether_the_queue_is_paused() {
            store.pause();
            assertThat(store.stats().paused()).isTrue();
            store.resume();
            assertThat(store.stats().paused()).isFalse();
        }
    }

    // ======================================================================================= inspect

    @Nested
    class Inspect {
        private static final int LIMIT = 100;

        private Instant at(long millis) {
            return Instant.ofEpochMilli(millis);
        }

        @Test
        void an_empty_queue_inspects_as_empty_lists_and_zero_totals_at_the_backend_time() {
            advance(Duration.ofSeconds(3));

            assertThat(store.inspect(LIMIT)).isEqualTo(new QueueInspection(at(now()),
                    List.of(), 0, List.of(), 0, List.of(), 0, List.of(), 0));
        }

        @Test
        void busiest_partitions_come_most_waiting_first_and_ties_by_code() {
            Partition two = regularPartition("two");
            Partition alsoTwo = orderedPartition("also-two");
            Partition three = regularPartition("three");
            Partition one = regularPartition("one");
            given(tasksIn(two, "t1", "t2"));
            given(tasksIn(one, "o1"));
            given(tasksIn(three, "h1", "h2", "h3"));
            given(tasksIn(alsoTwo, "a1", "a2"));

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.busiestPartitions()).containsExactly(
                    new PartitionBacklog(three, 3, 3),
                    new PartitionBacklog(alsoTwo, 2, 2), // "!also-two" sorts before "two"
                    new PartitionBacklog(two, 2, 2),
                    new PartitionBacklog(one, 1, 1));
            assertThat(inspection.totalPartitions()).isEqualTo(4);
        }

        @Test
        void ties_follow_javas_string_order_even_beyond_the_basic_multilingual_plane() {
            Partition replacement = regularPartition("\uFFFD");
            Partition emoji = regularPartition("\uD83D\uDE00"); // a surrogate pair: before U+FFFD in Java's order
            Partition ascii = regularPartition("z");
            given(task("r", replacement), task("e", emoji), task("a", ascii));
            store.blockPartition(replacement, Duration.ofSeconds(1));
            store.blockPartition(emoji, Duration.ofSeconds(1));

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::partition)
                    .containsExactly(ascii, emoji, replacement);
            assertThat(inspection.blocks()).extracting(PartitionBlock::partition).containsExactly(emoji, replacement);
            assertThat(store.inspect(2).busiestPartitions()).extracting(PartitionBacklog::partition)
                    .containsExactly(ascii, emoji);
        }

        @Test
        void waiting_counts_due_and_delayed_tasks_but_not_those_in_flight_and_due_only_those_ready_now() {
            Partition partition = regularPartition();
            given(task("taken", partition), task("due", partition),
                    task("later", partition).delayedBy(Duration.ofSeconds(10)));
            assertThat(consumeIds(workerA(), 1)).containsExactly("taken");

            assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(partition, 2, 1));
            advance(Duration.ofSeconds(10));
            assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(partition, 2, 2));
        }

        @Test
        void a_retry_waiting_for_its_delay_is_waiting_but_not_due_even_at_the_head_of_an_ordered_partition() {
            Partition ordered = orderedPartition();
            given(task("o1", ordered).priority(5).header("trace", "t-1"), task("o2", ordered).priority(5));
            consume(workerA(), 1);
            store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "downstream said no"));

            assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(ordered, 2, 1));
            advance(Duration.ofSeconds(10));
            assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(ordered, 2, 2));
        }

        @Test
        void a_partition_with_only_tasks_in_flight_or_dead_is_not_listed() {
            Partition partition = regularPartition();
            given(tasksIn(partition, "a", "b"));
            consume(workerA(), 2);
            store.fail(workerA(), ids("a"), "broken");

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.busiestPartitions()).isEmpty();
            assertThat(inspection.totalPartitions()).isZero();
        }

        @Test
        void a_lock_names_its_holder_when_it_was_taken_and_what_the_holder_has_in_flight() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2", "o3"));
            advance(Duration.ofSeconds(2));
            long takenAt = now();
            assertThat(consumeIds(workerA(), 2)).containsExactly("o1", "o2");
            advance(Duration.ofSeconds(5));
            store.ack(workerA(), ids("o1"));

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.locks()).containsExactly(new PartitionLock(ordered, workerA(), at(takenAt), 1));
            assertThat(inspection.totalLocks()).isEqualTo(1);
            assertThat(inspection.busiestPartitions()).as("o3 still waits behind the held batch")
                    .containsExactly(new PartitionBacklog(ordered, 1, 1));
        }

        @Test
        void locks_come_longest_held_first_and_ties_by_code() {
            Partition b = orderedPartition("b");
            Partition a = orderedPartition("a");
            Partition first = orderedPartition("z-first");
            given(tasksIn(first, "f1"));
            long firstTakenAt = now();
            consume(workerC(), 1);
            advance(Duration.ofSeconds(1));
            given(tasksIn(b, "b1"));
            given(tasksIn(a, "a1"));
            given(task("regular"));
            consume(workerA(), 10);

            assertThat(store.inspect(LIMIT).locks()).containsExactly(
                    new PartitionLock(first, workerC(), at(firstTakenAt), 1),
                    new PartitionLock(a, workerA(), at(now()), 1),
                    new PartitionLock(b, workerA(), at(now()), 1));
        }

        @Test
        void a_lock_is_gone_once_its_holder_has_nothing_of_the_partition_in_flight() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 2);

            store.ack(workerA(), ids("o1", "o2"));

            QueueInspection inspection = store.inspect(LIMIT);
            assertThat(inspection.locks()).isEmpty();
            assertThat(inspection.totalLocks()).isZero();
        }

        @Test
        void a_lock_taken_again_reports_the_new_holder_and_time() {
            Partition ordered = orderedPartition();
            given(tasksIn(ordered, "o1", "o2"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("o1"));
            advance(Duration.ofSeconds(3));

            consume(workerB(), 1);

            assertThat(store.inspect(LIMIT).locks()).containsExactly(new PartitionLock(ordered, workerB(), at(now()), 1));
        }

        @Test
        void blocks_in_force_come_soonest_unblocked_first_with_their_end_and_expired_ones_vanish() {
            Partition later = regularPartition("later");
            Partition sooner = orderedPartition("sooner");
            Partition tiedA = regularPartition("tied-a");
            Partition tiedB = regularPartition("tied-b");
            long start = now();
            store.blockPartition(later, Duration.ofSeconds(30));
            store.blockPartition(tiedB, Duration.ofSeconds(20));
            store.blockPartition(tiedA, Duration.ofSeconds(20));
            store.blockPartition(sooner, Duration.ofSeconds(10));

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.blocks()).containsExactly(
                    new PartitionBlock(sooner, at(start + 10_000)),
                    new PartitionBlock(tiedA, at(start + 20_000)),
                    new PartitionBlock(tiedB, at(start + 20_000)),
                    new PartitionBlock(later, at(start + 30_000)));
            assertThat(inspection.totalBlocks()).isEqualTo(4);
            advance(Duration.ofSeconds(20));
            assertThat(store.inspect(LIMIT).blocks()).containsExactly(new PartitionBlock(later, at(start + 30_000)));
            store.unblockPartition(later);
            assertThat(store.inspect(LIMIT).totalBlocks()).isZero();
        }

        @Test
        void a_block_set_by_reject_is_listed() {
            Partition partition = regularPartition();
            given(task("a", partition));
            consume(workerA(), 1);

            store.reject(workerA(), ids("a"), Rejection.rateLimited(Duration.ofSeconds(15), "rate limited"));

            assertThat(store.inspect(LIMIT).blocks()).containsExactly(new PartitionBlock(partition, at(now() + 15_000)));
        }

        @Test
        void consumers_come_latest_heartbeat_first_with_expiry_liveness_and_tasks_in_flight() {
            given(task("a"), task("b"), task("c"));
            long start = now();
            store.heartbeat(workerA(), Duration.ofSeconds(10));
            advance(Duration.ofSeconds(2));
            consume(workerB(), 2); // a consume registers the consumer, with the queue's heartbeat TTL
            advance(Duration.ofSeconds(1));
            store.heartbeat(workerC(), Duration.ofSeconds(1));
            advance(Duration.ofSeconds(2));

            QueueInspection inspection = store.inspect(LIMIT);

            assertThat(inspection.consumers()).containsExactly(
                    new ConsumerPresence(workerC(), at(start + 3_000), at(start + 4_000), false, 0),
                    new ConsumerPresence(workerB(), at(start + 2_000), at(start + 2_000).plus(DEFAULT_TTL), true, 2),
                    new ConsumerPresence(workerA(), at(start), at(start + 10_000), true, 0));
            assertThat(inspection.totalConsumers()).isEqualTo(3);
        }

        @Test
        void a_consume_counts_as_a_heartbeat_but_never_shortens_the_expiry() {
            given(task("a"));
            store.heartbeat(workerA(), Duration.ofHours(1));
            long expiresAt = now() + 3_600_000;
            advance(Duration.ofSeconds(5));

            consume(workerA(), 1);

            assertThat(store.inspect(LIMIT).consumers())
                    .containsExactly(new ConsumerPresence(workerA(), at(now()), at(expiresAt), true, 1));
        }

        @Test
        void consumers_with_equal_heartbeats_come_by_name() {
            store.heartbeat(workerB(), Duration.ofSeconds(10));
            store.heartbeat(workerA(), Duration.ofSeconds(10));

            assertThat(store.inspect(LIMIT).consumers()).extracting(ConsumerPresence::consumer)
                    .containsExactly(workerA(), workerB());
        }

        @Test
        void a_dead_consumer_is_listed_until_reclaimed_and_then_gone() {
            given(task("a"));
            consume(workerA(), 1);
            letDefaultHeartbeatsExpire();

            assertThat(store.inspect(LIMIT).consumers()).singleElement()
                    .satisfies(presence -> assertThat(presence.alive()).isFalse())
                    .satisfies(presence -> assertThat(presence.inFlight()).isEqualTo(1));
            store.reclaim();

            QueueInspection inspection = store.inspect(LIMIT);
            assertThat(inspection.consumers()).isEmpty();
            assertThat(inspection.totalConsumers()).isZero();
            assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::waiting).containsExactly(1L);
        }

        @Test
        void each_list_is_cut_at_the_limit_while_the_totals_count_everything() {
            given(tasksIn(orderedPartition("first"), "f1", "f2"));
            consume(workerB(), 1); // locks !first
            advance(Duration.ofSeconds(1));
            given(tasksIn(orderedPartition("second"), "x1"));
            consume(workerC(), 1); // locks !second, the only partition it may take from
            store.heartbeat(workerA(), Duration.ofMinutes(1));
            given(tasksIn(regularPartition("big"), "b1", "b2", "b3"));
            given(tasksIn(regularPartition("small"), "s1"));
            store.blockPartition(regularPartition("blocked-1"), Duration.ofSeconds(1));
            store.blockPartition(regularPartition("blocked-2"), Duration.ofSeconds(2));

            QueueInspection inspection = store.inspect(1);

            assertThat(inspection.busiestPartitions()).containsExactly(new PartitionBacklog(regularPartition("big"), 3, 3));
            assertThat(inspection.totalPartitions()).as("big, small, !first").isEqualTo(3);
            assertThat(inspection.locks()).extracting(PartitionLock::partition).containsExactly(orderedPartition("first"));
            assertThat(inspection.totalLocks()).isEqualTo(2);
            assertThat(inspection.blocks()).extracting(PartitionBlock::partition)
                    .containsExactly(regularPartition("blocked-1"));
            assertThat(inspection.totalBlocks()).isEqualTo(2);
            assertThat(inspection.consumers()).as("a and c tie on the latest heartbeat").extracting(ConsumerPresence::consumer)
                    .containsExactly(workerA());
            assertThat(inspection.totalConsumers()).isEqualTo(3);
        }

        @Test
        void the_cut_keeps_the_busiest_partitions() {
            for (int size = 1; size <= 5; size++) {
                given(numberedTasksIn(regularPartition("p" + size), "p" + size + "-", size));
            }

            QueueInspection inspection = store.inspect(2);

            assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::partition)
                    .containsExactly(regularPartition("p5"), regularPartition("p4"));
            assertThat(inspection.totalPartitions()).isEqualTo(5);
        }

        @Test
        void the_largest_limit_is_accepted() {
            given(task("a"));

            assertThat(store.inspect(QueueInspection.MAX_LIMIT).totalPartitions()).isEqualTo(1);
        }

        @Test
        void a_limit_outside_one_to_the_maximum_is_rejected_naming_limit() {
            assertInvalid("limit", () -> store.inspect(0));
            assertInvalid("limit", () -> store.inspect(-1));
            assertInvalid("limit", () -> store.inspect(QueueInspection.MAX_LIMIT + 1));
        }

        @Test
        void inspecting_changes_nothing() {
            given(task("a"), task("later").delayedBy(Duration.ofSeconds(5)));
            store.blockPartition(regularPartition(), Duration.ofSeconds(1));
            QueueStats before = store.stats();

            store.inspect(LIMIT);
            store.inspect(1);

            assertThat(store.stats()).isEqualTo(before);
            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }
    }

    // ================================================================================== pause/resume

    @Nested
    class PauseResume {
        @Test
        void a_paused_queue_delivers_nothing_but_accepts_publishes() {
            given(task("before"));

            store.pause();

            assertThat(store.publish(List.of(task("during").build()))).containsExactly(receipt("during", CREATED));
            assertThat(consume(workerA(), 10)).isEmpty();
            assertThat(store.stats().ready()).isEqualTo(2);
        }

        @Test
        void resume_delivers_again() {
            given(task("a"));
            store.pause();

            store.resume();

            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }

        @Test
        void pausing_leaves_tasks_in_flight_with_their_consumers() {
            given(task("a"), task("b"));
            consume(workerA(), 2);

            store.pause();

            assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
            assertThat(store.reject(workerA(), ids("b"), Rejection.retryNow("later"))).containsExactly(entry(id("b"), RETURNED));
            assertThat(consume(workerA(), 10)).isEmpty();
        }

        @Test
        void pausing_twice_needs_one_resume() {
            given(task("a"));
            store.pause();
            store.pause();

            store.resume();

            assertThat(consumeIds(workerA(), 10)).containsExactly("a");
        }
    }

    // ====================================================================================== settings

    @Nested
    class Settings {
        @Test
        void a_new_queue_has_the_default_settings() {
            assertThat(store.settings()).isEqualTo(QueueSettings.DEFAULTS);
        }

        @Test
        void configured_settings_are_read_back() {
            QueueSettings custom = QueueSettings.builder().maxAttempts(9).processingTimeout(Duration.ofMinutes(2))
                    .dedupWindow(Duration.ofHours(1)).heartbeatTtl(Duration.ofSeconds(7)).maxPayloadBytes(4096).build();

            store.configure(custom);

            assertThat(store.settings()).isEqualTo(custom);
        }

        @Test
        void settings_belong_to_one_queue() {
            store.configure(QueueSettings.builder().maxAttempts(2).build());

            TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);

            assertThat(other.settings()).isEqualTo(QueueSettings.DEFAULTS);
        }

        @Test
        void a_lower_max_attempts_takes_effect_at_the_next_reject() {
            given(task("a"));
            consume(workerA(), 1);
            store.reject(workerA(), ids("a"), Rejection.retryNow("no"));
            consume(workerA(), 1);

            configure(s -> s.maxAttempts(2));

            assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no")))
                    .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
        }

        @Test
        void a_dedup_window_makes_a_republished_acked_id_a_duplicate_while_it_lasts() {
            configure(s -> s.dedupWindow(Duration.ofSeconds(60)));
            given(task("a"));
            consume(workerA(), 1);
            store.ack(workerA(), ids("a"));

            advance(Duration.ofSeconds(60).minusMillis(1));
            assertThat(store.publish(List.of(task("a").build()))).containsExactly(receipt("a", DUPLICATE));
            assertThat(store.get(id("a"))).as("remembered, not kept").isEmpty();
            advanceMillis(1);
            assertThat(store.publish(List.of(task("a").build()))).containsExactly(receipt("a", CREATED));
        }

        @Test
        void a_smaller_payload_limit_takes_effect_at_the_next_publish() {
            configure(s -> s.maxPayloadBytes(10));

            assertInvalid("tasks[0].payload", () -> store.publish(List.of(anyTask().payload(payloadOfSize(11)).build())));
            assertThat(store.stats().publishedTotal()).isZero();
        }

        @Test
        void a_shorter_heartbeat_ttl_takes_effect_at_the_next_consume() {
            configure(s -> s.heartbeatTtl(Duration.ofSeconds(5)));
            given(task("a"));
            consume(workerA(), 1);
            advance(Duration.ofSeconds(5));

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0));
        }

        @Test
        void a_processing_timeout_set_later_applies_to_tasks_already_in_flight() {
            given(task("a"));
            consume(workerA(), 1);
            store.heartbeat(workerA(), Duration.ofMinutes(10));
            advance(Duration.ofSeconds(20));

            configure(s -> s.processingTimeout(Duration.ofSeconds(10)));

            assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 1, 0, 1));
        }
    }

    // ======================================================================================== queues

    @Nested
    class Queues {
        @Test
        void two_queues_never_see_each_others_tasks() {
            TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);
            given(task("shared").payload("mine"));

            assertThat(other.publish(List.of(task("shared").payload("theirs").build())))
                    .containsExactly(receipt("shared", CREATED));
            assertThat(other.consume(workerA(), 10, NO_WAIT)).extracting(lease -> new String(lease.task().payload(), StandardCharsets.UTF_8))
                    .containsExactly("theirs");
            assertThat(other.ack(workerA(), ids("shared"))).containsExactly(entry(id("shared"), ACKED));

            assertThat(stateOf("shared")).isEqualTo(PENDING);
            assertThat(snapshot("shared").task().payload()).containsExactly("mine".getBytes(StandardCharsets.UTF_8));
            assertThat(store.stats().publishedTotal()).isEqualTo(1);
            assertThat(store.stats().ackedTotal()).isZero();
        }

        @Test
        void pausing_or_blocking_one_queue_leaves_the_other_alone() {
            TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);
            Partition partition = regularPartition();
            given(task("here", partition));
            other.publish(List.of(task("there", partition).build()));

            other.pause();
            other.blockPartition(partition, Duration.ofMinutes(1));

            assertThat(consumeIds(workerA(), 10)).containsExactly("here");
        }
    }

    // ================================================================================= hostile names

    @Nested
    class HostileNamesNeverCollide {
        @Test
        void task_ids_with_special_characters_are_kept_apart() {
            List<String> hostile = HostileNames.all();
            Partition partition = regularPartition();

            List<PublishReceipt> receipts = store.publish(hostile.stream()
                    .map(id -> task(id, partition).build()).collect(Collectors.toList()));

            assertThat(receipts).extracting(PublishReceipt::outcome).containsOnly(CREATED);
            assertThat(receipts).extracting(receipt -> receipt.id().value()).containsExactlyElementsOf(hostile);
            assertThat(store.stats().ready()).isEqualTo(hostile.size());
            assertThat(hostile).allSatisfy(id -> assertThat(snapshot(id).task().payload()).containsExactly(payloadOf(id)));
            List<Lease> leases = consume(workerA(), hostile.size());
            assertThat(idsOf(leases)).containsExactlyElementsOf(hostile);
            assertThat(store.ack(workerA(), ids(hostile)).values()).containsOnly(ACKED);
            assertThat(store.stats().inFlight()).isZero();
            assertThat(hostile).allSatisfy(id -> assertThat(store.get(id(id))).isEmpty());
        }

        @Test
        void partition_codes_with_special_characters_are_kept_apart() {
            List<String> codes = HostileNames.partitionCodes();
            List<NewTask> tasks = new ArrayList<>();
            for (int i = 0; i < codes.size(); i++) {
                tasks.add(task("t" + i, Partition.of(codes.get(i))).build());
            }
            given(tasks);

            assertThat(store.stats().activePartitions()).isEqualTo(codes.size());
            List<Lease> leases = consume(workerA(), TaskStore.MAX_CONSUME);

            assertThat(leases).extracting(lease -> lease.partition().code()).containsExactlyElementsOf(codes);
            assertThat(idsOf(leases)).containsExactlyElementsOf(numberedFromZero("t", codes.size()));
            long ordered = codes.stream().filter(code -> code.startsWith("!")).count();
            assertThat(store.stats().lockedPartitions()).isEqualTo(ordered);
        }

        @Test
        void hostile_partition_codes_never_share_a_lock_or_a_block() {
            given(task("ordered-a", Partition.of("!a")), task("ordered-a-2", Partition.of("!a")));
            given(task("regular-a", Partition.of("a")), task("a-colon", Partition.of("!a:")),
                    task("braced", Partition.of("!{a}")), task("colon-b", Partition.of("a:b")),
                    task("colon-b-c", Partition.of("a:b:c")), task("braced-colon-b", Partition.of("{a:b}")));
            consume(workerA(), 1);
            store.blockPartition(Partition.of("a:b"), Duration.ofMinutes(1));

            assertThat(consumeIds(workerB(), 10)).containsExactly("regular-a", "a-colon", "braced", "colon-b-c", "braced-colon-b");
        }

        @Test
        void consumers_with_special_characters_are_kept_apart() {
            List<String> names = HostileNames.all();
            Partition partition = regularPartition();
            given(numberedTasksIn(partition, "t", names.size()));
            for (int i = 0; i < names.size(); i++) {
                assertThat(consumeIds(ConsumerId.of(names.get(i)), 1)).containsExactly("t" + (i + 1));
            }

            assertThat(store.stats().liveConsumers()).isEqualTo(names.size());
            for (int i = 0; i < names.size(); i++) {
                String taskId = "t" + (i + 1);
                assertThat(snapshot(taskId).holder()).contains(ConsumerId.of(names.get(i)));
                String other = names.get((i + 1) % names.size());
                assertThat(store.ack(ConsumerId.of(other), ids(taskId)).values()).containsExactly(AckOutcome.LEASE_LOST);
            }
            for (int i = 0; i < names.size(); i++) {
                assertThat(store.ack(ConsumerId.of(names.get(i)), ids("t" + (i + 1))).values()).containsExactly(ACKED);
            }
        }

        @Test
        void hostile_ids_reasons_and_partitions_survive_every_operation() {
            String weird = "!{ordo}:a b:\u00e4\uD83D\uDE00";
            String next = weird + ":2";
            Partition ordered = Partition.ordered("{x}:y \u00e4");
            String reason = "failed: {json: \"a:b\"} \u00e4 \uD83D\uDE00 !";
            ConsumerId consumer = ConsumerId.of("w:{1} \u00e4");
            given(task(weird, ordered), task(next, ordered));

            assertThat(consumeIds(consumer, 10)).containsExactly(weird, next);
            assertThat(store.reject(consumer, ids(weird), Rejection.retryNow(reason)))
                    .containsOnly(entry(id(weird), RETURNED), entry(id(next), RETURNED_WITH_BATCH));
            assertThat(snapshot(weird).task().lastError()).isEqualTo(reason);
            assertThat(consumeIds(consumer, 1)).containsExactly(weird);
            store.fail(consumer, ids(weird), reason);
            assertThat(store.deadLetters(0, 10).items()).singleElement().satisfies(dead -> {
                assertThat(dead.id().value()).isEqualTo(weird);
                assertThat(dead.reason()).isEqualTo(reason);
                assertThat(dead.task().partition()).isEqualTo(ordered);
            });
            assertThat(consumeIds(workerB(), 10)).containsExactly(next);
            assertThat(store.cancel(ids(next))).containsExactly(entry(id(next), CancelOutcome.IN_FLIGHT));
            assertThat(store.redrive(ids(weird))).containsExactly(entry(id(weird), RedriveOutcome.REDRIVEN));
            assertThat(store.ack(workerB(), ids(next))).containsExactly(entry(id(next), ACKED));
            assertThat(consumeIds(workerB(), 10)).containsExactly(weird);
            assertThat(store.cancel(ids(weird))).containsExactly(entry(id(weird), CancelOutcome.IN_FLIGHT));
        }

        private List<String> numberedFromZero(String prefix, int count) {
            return IntStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.toList());
        }
    }

    // ===================================================================================== bad input

    @Nested
    class BadInput {
        @Test
        void consume_rejects_a_max_out_of_range_and_writes_nothing() {
            given(task("a"));

            assertInvalid("max", () -> store.consume(workerA(), 0, NO_WAIT));
            assertInvalid("max", () -> store.consume(workerA(), -1, NO_WAIT));
            assertInvalid("max", () -> store.consume(workerA(), TaskStore.MAX_CONSUME + 1, NO_WAIT));

            assertThat(stateOf("a")).isEqualTo(PENDING);
            assertThat(store.stats().liveConsumers()).as("not even registered").isZero();
        }

        @Test
        void consume_rejects_a_wait_out_of_range() {
            assertInvalid("wait", () -> store.consume(workerA(), 1, Duration.ofMillis(-1)));
            assertInvalid("wait", () -> store.consume(workerA(), 1, TaskStore.MAX_WAIT.plusMillis(1)));
            assertInvalid("wait", () -> store.consume(workerA(), 1, null));
            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void consume_rejects_a_missing_consumer() {
            assertInvalid("consumer", () -> store.consume(null, 1, NO_WAIT));
        }

        @Test
        void ack_rejects_missing_ids_and_acks_none_of_a_list_with_a_null() {
            given(task("a"));
            consume(workerA(), 1);

            assertInvalid("ids", () -> store.ack(workerA(), null));
            assertInvalid("ids[1]", () -> store.ack(workerA(), Arrays.asList(id("a"), null)));
            assertInvalid("consumer", () -> store.ack(null, ids("a")));

            assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        }

        @Test
        void ack_rejects_more_than_ten_thousand_ids() {
            List<TaskId> tooMany = IntStream.rangeClosed(1, 10_001).mapToObj(i -> id("t" + i)).collect(Collectors.toList());

            assertInvalid("ids", () -> store.ack(workerA(), tooMany));
        }

        @Test
        void reject_rejects_bad_input_and_returns_nothing() {
            given(task("a"));
            consume(workerA(), 1);

            assertInvalid("rejection", () -> store.reject(workerA(), ids("a"), null));
            assertInvalid("ids[1]", () -> store.reject(workerA(), Arrays.asList(id("a"), null), Rejection.retryNow("no")));
            assertInvalid("ids", () -> store.reject(workerA(), null, Rejection.retryNow("no")));
            assertInvalid("consumer", () -> store.reject(null, ids("a"), Rejection.retryNow("no")));

            assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
            assertThat(snapshot("a").task().lastError()).isNull();
        }

        @Test
        void fail_rejects_bad_input_and_dead_letters_nothing() {
            given(task("a"));
            consume(workerA(), 1);

            assertInvalid("ids[1]", () -> store.fail(workerA(), Arrays.asList(id("a"), null), "no"));
            assertInvalid("ids", () -> store.fail(workerA(), null, "no"));
            assertInvalid("consumer", () -> store.fail(null, ids("a"), "no"));

            assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
            assertThat(store.stats().dead()).isZero();
        }

        @Test
        void release_rejects_bad_input_and_releases_nothing() {
            given(task("a"));
            consume(workerA(), 1);

            assertInvalid("ids[1]", () -> store.release(workerA(), Arrays.asList(id("a"), null)));
            assertInvalid("ids", () -> store.release(workerA(), null));
            assertInvalid("consumer", () -> store.release(null, ids("a")));

            assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        }

        @Test
        void block_partition_rejects_bad_input_and_blocks_nothing() {
            Partition partition = regularPartition();

            assertInvalid("duration", () -> store.blockPartition(partition, Duration.ofMillis(-1)));
            assertInvalid("duration", () -> store.blockPartition(partition, Duration.ofDays(366)));
            assertInvalid("duration", () -> store.blockPartition(partition, null));
            assertInvalid("partition", () -> store.blockPartition(null, Duration.ofSeconds(1)));
            assertInvalid("partition", () -> store.unblockPartition(null));

            assertThat(store.stats().blockedPartitions()).isZero();
        }

        @Test
        void heartbeat_rejects_bad_input_and_registers_nobody() {
            assertInvalid("ttl", () -> store.heartbeat(workerA(), Duration.ofMillis(-1)));
            assertInvalid("ttl", () -> store.heartbeat(workerA(), null));
            assertInvalid("consumer", () -> store.heartbeat(null, Duration.ofSeconds(1)));

            assertThat(store.stats().liveConsumers()).isZero();
        }

        @Test
        void cancel_rejects_bad_input_and_cancels_nothing() {
            given(task("a"));

            assertInvalid("ids[1]", () -> store.cancel(Arrays.asList(id("a"), null)));
            assertInvalid("ids", () -> store.cancel(null));

            assertThat(stateOf("a")).isEqualTo(PENDING);
        }

        @Test
        void get_rejects_a_missing_id() {
            assertInvalid("id", () -> store.get(null));
        }

        @Test
        void dead_letter_operations_reject_bad_input_and_change_nothing() {
            given(task("a"));
            consume(workerA(), 1);
            store.fail(workerA(), ids("a"), "broken");

            assertInvalid("offset", () -> store.deadLetters(-1, 10));
            assertInvalid("limit", () -> store.deadLetters(0, -1));
            assertInvalid("ids[1]", () -> store.redrive(Arrays.asList(id("a"), null)));
            assertInvalid("ids", () -> store.redrive(null));
            assertInvalid("ids[1]", () -> store.purgeDeadLetters(Arrays.asList(id("a"), null)));
            assertInvalid("ids", () -> store.purgeDeadLetters(null));

            assertThat(stateOf("a")).isEqualTo(DEAD);
        }

        @Test
        void configure_rejects_missing_settings() {
            assertInvalid("settings", () -> store.configure(null));

            assertThat(store.settings()).isEqualTo(QueueSettings.DEFAULTS);
        }
    }
}
