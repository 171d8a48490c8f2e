package io.ordo.tck;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.TaskId;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A waiting consume wakes whenever work becomes deliverable (docs/semantics.md, "Partitions and the order across them"): a publish,
 * a delay running out, a resume, a block ending or lifted, an ordered partition's lock released, a
 * reclaim, a redrive, a cancel uncovering a ready task. In every test the consumer starts waiting
 * before the change, with a wait far longer than the bound, so a store that misses the change returns
 * nothing at the end of the wait and the test fails on the time taken, not on a timeout of its own.
 * The stores run on the machine's clock here (Redis: the server's {@code TIME}), the way production runs.
 * A backend's test extends this class and supplies {@link #createStore}, as for the main kit.
 */
public abstract class WakeUpKit {
    /** How long each waiting consume is willing to wait: far beyond {@link #PROMPTLY}. */
    private static final Duration WAIT = Duration.ofSeconds(10);
    /**
     * How soon after the change the waiting consume must have returned with the task. Typically a few
     * milliseconds (docs/reliability.md); the bound leaves room for a busy machine running several builds.
     */
    private static final Duration PROMPTLY = Duration.ofMillis(500);
    /** Long enough for a consume to have looked once and begun waiting. */
    private static final Duration SETTLE = Duration.ofMillis(200);
    /** A time-driven change (a delay, a block) comes this long after it was set up. */
    private static final Duration SHORTLY = Duration.ofMillis(600);
    /** As {@link #SHORTLY}, when the consume begins waiting after the setup: room for it to settle first. */
    private static final Duration LATER = Duration.ofSeconds(2);
    private static final Duration NO_WAIT = Duration.ZERO;

    private final ConsumerId holder = ConsumerId.of("holder");
    private final ConsumerId waiter = ConsumerId.of("waiter");
    private final Partition regular = Partition.regular("account-1");
    private final Partition ordered = Partition.ordered("account-2");

    private ExecutorService pool;
    private TaskStore store;

    /** A store serving {@code queue} on the machine's clock (no clock override); called before every test. */
    protected abstract TaskStore createStore(QueueName queue);

    @BeforeEach
    void startOnAFreshQueue() {
        pool = Executors.newCachedThreadPool();
        store = createStore(QueueName.of("tck-wake-" + UUID.randomUUID()));
    }

    @AfterEach
    void stopWaiting() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(15, TimeUnit.SECONDS);
    }

    // ------------------------------------------------------------------------------ new work

    @Test
    void a_publish_wakes_a_waiting_consumer() throws Exception {
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        publish(task("t1", regular, Duration.ZERO));

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void one_publish_of_two_tasks_wakes_two_waiting_consumers() throws Exception {
        Waiting first = startWaiting(ConsumerId.of("waiter-1"));
        Waiting second = startWaiting(ConsumerId.of("waiter-2"));

        long changedAt = System.nanoTime();
        publish(task("t1", regular, Duration.ZERO), task("t2", Partition.regular("account-3"), Duration.ZERO));

        List<String> delivered = new ArrayList<>();
        delivered.addAll(first.deliveredWithin(changedAt));
        delivered.addAll(second.deliveredWithin(changedAt));
        assertThat(delivered).containsExactlyInAnyOrder("t1", "t2");
    }

    @Test
    void a_consumer_waiting_in_ack_and_consume_is_woken_by_a_publish() throws Exception {
        publish(task("earlier", regular, Duration.ZERO));
        TaskId earlier = store.consume(waiter, 1, NO_WAIT).get(0).id();
        Waiting waiting = settled(() -> store.ackAndConsume(waiter, List.of(earlier), 1, WAIT).taken());

        long changedAt = System.nanoTime();
        publish(task("t1", regular, Duration.ZERO));

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void a_redrive_wakes_a_waiting_consumer() throws Exception {
        publish(task("t1", regular, Duration.ZERO));
        store.consume(holder, 1, NO_WAIT);
        store.fail(holder, List.of(TaskId.of("t1")), "boom");
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        store.redrive(List.of(TaskId.of("t1")));

        waiting.assertDelivers(changedAt, "t1");
    }

    // ------------------------------------------------------------------------------ time

    @Test
    void a_delay_running_out_wakes_a_consumer_that_was_waiting_before_the_task_was_published() throws Exception {
        Waiting waiting = startWaiting(waiter);

        long dueAt = System.nanoTime() + SHORTLY.toNanos();
        publish(task("t1", regular, SHORTLY));

        waiting.assertDelivers(dueAt, "t1");
    }

    @Test
    void a_delay_running_out_wakes_a_consumer_that_began_waiting_after_the_task_was_published() throws Exception {
        long dueAt = System.nanoTime() + LATER.toNanos();
        publish(task("t1", regular, LATER));

        Waiting waiting = startWaiting(waiter);

        waiting.assertDelivers(dueAt, "t1");
    }

    @Test
    void a_shorter_delay_published_later_wakes_a_consumer_napping_until_a_later_one() throws Exception {
        publish(task("later", regular, Duration.ofMinutes(1)));
        Waiting waiting = startWaiting(waiter);

        long dueAt = System.nanoTime() + SHORTLY.toNanos();
        publish(task("sooner", Partition.regular("account-3"), SHORTLY));

        waiting.assertDelivers(dueAt, "sooner");
    }

    @ParameterizedTest
    @EnumSource(PartitionKind.class)
    void a_retry_delay_running_out_wakes_a_waiting_consumer(PartitionKind kind) throws Exception {
        Partition partition = kind.partition();
        publish(task("t1", partition, Duration.ZERO));
        store.consume(holder, 1, NO_WAIT);
        Waiting waiting = startWaiting(waiter);

        long dueAt = System.nanoTime() + SHORTLY.toNanos();
        store.reject(holder, List.of(TaskId.of("t1")), Rejection.retryAfter(SHORTLY, "later"));

        waiting.assertDelivers(dueAt, "t1");
    }

    // ------------------------------------------------------------------------------ pause, blocks

    @Test
    void a_resume_wakes_a_waiting_consumer() throws Exception {
        store.pause();
        publish(task("t1", regular, Duration.ZERO));
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        store.resume();

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void a_resume_wakes_a_waiting_consumer_for_a_task_that_fell_due_during_the_pause() throws Exception {
        store.pause();
        publish(task("t1", regular, SHORTLY));
        Waiting waiting = startWaiting(waiter);
        Thread.sleep(2 * SHORTLY.toMillis()); // due meanwhile, but paused

        long changedAt = System.nanoTime();
        store.resume();

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void a_lifted_block_wakes_a_waiting_consumer() throws Exception {
        store.blockPartition(regular, Duration.ofMinutes(1));
        publish(task("t1", regular, Duration.ZERO));
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        store.unblockPartition(regular);

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void a_block_ending_wakes_a_consumer_that_was_waiting_before_the_block() throws Exception {
        Waiting waiting = startWaiting(waiter);

        long endsAt = System.nanoTime() + SHORTLY.toNanos();
        store.blockPartition(regular, SHORTLY);
        publish(task("t1", regular, Duration.ZERO));

        waiting.assertDelivers(endsAt, "t1");
    }

    @Test
    void a_block_ending_wakes_a_consumer_that_began_waiting_during_the_block() throws Exception {
        long endsAt = System.nanoTime() + LATER.toNanos();
        store.blockPartition(regular, LATER);
        publish(task("t1", regular, Duration.ZERO));

        Waiting waiting = startWaiting(waiter);

        waiting.assertDelivers(endsAt, "t1");
    }

    @Test
    void the_end_of_a_block_set_by_a_rejection_wakes_a_waiting_consumer() throws Exception {
        publish(task("t1", regular, Duration.ZERO), task("t2", regular, Duration.ZERO));
        assertThat(store.consume(holder, 2, NO_WAIT)).hasSize(2);
        Waiting waiting = startWaiting(waiter);

        long endsAt = System.nanoTime() + SHORTLY.toNanos();
        store.reject(holder, List.of(TaskId.of("t1")), new Rejection(Duration.ZERO, "rate limited", SHORTLY));

        waiting.assertDelivers(endsAt, "t1");
    }

    // ------------------------------------------------------------------------------ caps and rate limits

    @Test
    void an_ack_freeing_a_capped_partitions_slot_wakes_a_waiting_consumer() throws Exception {
        assertAnAckFreeingASlotWakesAWaitingConsumer(QueueSettings.builder().partitionConcurrency(1).build());
    }

    @Test
    void an_ack_freeing_a_slot_of_a_queue_at_its_cap_wakes_a_waiting_consumer() throws Exception {
        assertAnAckFreeingASlotWakesAWaitingConsumer(QueueSettings.builder().queueConcurrency(1).build());
    }

    /** Two tasks of one partition under a cap of one: the second is delivered once the first is acked. */
    private void assertAnAckFreeingASlotWakesAWaitingConsumer(QueueSettings capOfOne) throws Exception {
        store.configure(capOfOne);
        publish(task("t1", regular, Duration.ZERO), task("t2", regular, Duration.ZERO));
        assertThat(store.consume(holder, 2, NO_WAIT)).hasSize(1);
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        store.ack(holder, List.of(TaskId.of("t1")));

        waiting.assertDelivers(changedAt, "t2");
    }

    @Test
    void a_partitions_next_token_wakes_a_waiting_consumer() throws Exception {
        assertTheNextTokenWakesAWaitingConsumer(
                QueueSettings.builder().partitionRateLimit(new RateLimit(1, SHORTLY, 1)).build());
    }

    @Test
    void the_queues_next_token_wakes_a_waiting_consumer() throws Exception {
        assertTheNextTokenWakesAWaitingConsumer(
                QueueSettings.builder().queueRateLimit(new RateLimit(1, SHORTLY, 1)).build());
    }

    /** Two tasks under a limit of one a SHORTLY: the second is delivered when the next token comes. */
    private void assertTheNextTokenWakesAWaitingConsumer(QueueSettings oneTokenAShortWhile) throws Exception {
        store.configure(oneTokenAShortWhile);
        publish(task("t1", regular, Duration.ZERO), task("t2", regular, Duration.ZERO));
        long tokenAt = System.nanoTime() + SHORTLY.toNanos();
        assertThat(store.consume(holder, 2, NO_WAIT)).hasSize(1);
        Waiting waiting = startWaiting(waiter);

        waiting.assertDelivers(tokenAt, "t2");
    }

    // ------------------------------------------------------------------------------ ordered locks, reclaim, cancel

    /** How the holder of an ordered partition's run lets go of it. */
    public enum LettingGo {
        ACK, ACK_WITH_NEXT_FETCH, FAIL, REJECT, RELEASE
    }

    @ParameterizedTest
    @EnumSource(LettingGo.class)
    void the_release_of_an_ordered_lock_wakes_a_waiting_consumer(LettingGo how) throws Exception {
        publish(task("o1", ordered, Duration.ZERO), task("o2", ordered, Duration.ZERO));
        assertThat(store.consume(holder, 1, NO_WAIT)).extracting(lease -> lease.id().value()).containsExactly("o1");
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        List<TaskId> held = List.of(TaskId.of("o1"));
        switch (how) {
            case ACK -> store.ack(holder, held);
            case ACK_WITH_NEXT_FETCH -> store.ackAndConsume(holder, held, 0, NO_WAIT); // a worker's way
            case FAIL -> store.fail(holder, held, "boom");
            case REJECT -> store.reject(holder, held, Rejection.retryNow("again"));
            case RELEASE -> store.release(holder, held);
        }

        boolean stillFirst = how == LettingGo.REJECT || how == LettingGo.RELEASE;
        waiting.assertDelivers(changedAt, stillFirst ? "o1" : "o2");
    }

    @Test
    void a_reclaim_wakes_a_waiting_consumer() throws Exception {
        publish(task("t1", regular, Duration.ZERO));
        store.consume(holder, 1, NO_WAIT);
        store.heartbeat(holder, Duration.ofMillis(100)); // the holder then stops heartbeating: it died
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        assertThat(store.reclaim().deadConsumers()).containsExactly(holder);

        waiting.assertDelivers(changedAt, "t1");
    }

    @Test
    void a_reclaim_of_an_ordered_run_wakes_a_waiting_consumer() throws Exception {
        publish(task("o1", ordered, Duration.ZERO), task("o2", ordered, Duration.ZERO));
        store.consume(holder, 1, NO_WAIT);
        store.heartbeat(holder, Duration.ofMillis(100));
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        assertThat(store.reclaim().deadConsumers()).containsExactly(holder);

        waiting.assertDelivers(changedAt, "o1");
    }

    @Test
    void cancelling_a_delayed_ordered_head_wakes_a_consumer_waiting_for_the_task_behind_it() throws Exception {
        publish(task("o1", ordered, Duration.ZERO), task("o2", ordered, Duration.ZERO));
        store.consume(holder, 1, NO_WAIT);
        store.reject(holder, List.of(TaskId.of("o1")), Rejection.retryAfter(Duration.ofMinutes(1), "later"));
        Waiting waiting = startWaiting(waiter);

        long changedAt = System.nanoTime();
        store.cancel(List.of(TaskId.of("o1")));

        waiting.assertDelivers(changedAt, "o2");
    }

    // ------------------------------------------------------------------------------ helpers

    /** The partitions a time-driven change is tried in. */
    public enum PartitionKind {
        REGULAR, ORDERED;

        Partition partition() {
            return this == REGULAR ? Partition.regular("kind-regular") : Partition.ordered("kind-ordered");
        }
    }

    private static NewTask task(String id, Partition partition, Duration delay) {
        return NewTask.builder(partition, ("payload of " + id).getBytes(StandardCharsets.UTF_8))
                .id(id).delay(delay).build();
    }

    private void publish(NewTask... tasks) {
        store.publish(List.of(tasks));
    }

    /** A consume of one task with a long wait, begun on another thread; returns once it is waiting. */
    private Waiting startWaiting(ConsumerId consumer) throws InterruptedException {
        return settled(() -> store.consume(consumer, 1, WAIT));
    }

    private Waiting settled(Callable<List<Lease>> waitingConsume) throws InterruptedException {
        Future<Returned> returned = pool.submit(() -> {
            List<Lease> leases = waitingConsume.call();
            return new Returned(leases, System.nanoTime());
        });
        Thread.sleep(SETTLE.toMillis());
        assertThat(returned).as("the consume is still waiting when the change comes").isNotDone();
        return new Waiting(returned);
    }

    /** What a waiting consume returned, and when. */
    private record Returned(List<Lease> leases, long atNanos) {
    }

    /** A consume waiting on another thread. */
    private record Waiting(Future<Returned> returned) {
        /** The ids it delivered, checking it returned no later than {@link #PROMPTLY} after {@code since}. */
        List<String> deliveredWithin(long since) throws Exception {
            Returned result = returned.get(WAIT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            assertThat(Duration.ofNanos(result.atNanos() - since))
                    .as("time from the change to the waiting consume's return (delivered %s)", result.leases())
                    .isLessThan(PROMPTLY);
            return result.leases().stream().map(lease -> lease.id().value()).toList();
        }

        void assertDelivers(long since, String id) throws Exception {
            assertThat(deliveredWithin(since)).containsExactly(id);
        }
    }
}
