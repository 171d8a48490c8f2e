package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;

/** Consuming: which tasks a consume takes, leases, and waiting for work. */
public abstract class ConsumeContract extends ContractContext {
    protected ConsumeContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
