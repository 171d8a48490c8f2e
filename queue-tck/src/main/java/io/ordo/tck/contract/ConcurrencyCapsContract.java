package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_LIMITS;
import static io.ordo.tck.fixtures.ConsumerFixture.worker;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrency caps: a partition (partitionConcurrency, its override) and the queue (queueConcurrency) never
 * have more tasks in flight than their cap; a slot comes back with every way a task leaves its consumer.
 */
public abstract class ConcurrencyCapsContract extends ContractContext {
    protected ConcurrencyCapsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_partition_at_its_cap_delivers_nothing_more() {
        configure(s -> s.partitionConcurrency(2));
        given(numberedTasksIn(regularPartition("p"), "p-", 5));

        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1", "p-2");
        assertThat(consumeIds(workerB(), 10)).isEmpty();
        assertThat(store.stats().inFlight()).isEqualTo(2);
    }

    @Test
    void a_partition_at_its_cap_does_not_hold_up_the_others() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        given(numberedTasksIn(regularPartition("q"), "q-", 3));

        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1", "q-1");
        given(numberedTasksIn(regularPartition("r"), "r-", 2));
        assertThat(consumeIds(workerB(), 10)).containsExactly("r-1");
    }

    @Test
    void stats_count_the_partitions_with_tasks_waiting_at_their_cap() {
        Partition wide = regularPartition("wide");
        configure(s -> s.partitionConcurrency(1).partitionConcurrencyOverrides(Map.of(wide, 2)));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        given(tasksIn(regularPartition("q"), "q-1"));
        given(numberedTasksIn(wide, "w-", 3));
        assertThat(store.stats().cappedPartitions()).isZero();

        assertThat(consumeIds(workerA(), 10)).containsExactlyInAnyOrder("p-1", "q-1", "w-1", "w-2");

        assertThat(store.stats().cappedPartitions()).as("p and wide wait at their caps; q is at its cap, nothing waiting")
                .isEqualTo(2);
        store.ack(workerA(), ids("p-1"));
        assertThat(store.stats().cappedPartitions()).isEqualTo(1);
        assertThat(store.stats().throttledPartitions()).isZero();
    }

    @Test
    void an_ack_gives_the_slot_back() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        assertThat(consumeIds(workerA(), 5)).containsExactly("p-1");

        store.ack(workerA(), ids("p-1"));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2");
        assertThat(consumeIds(workerB(), 5)).isEmpty();
    }

    @Test
    void an_ack_and_consume_uses_the_slot_its_acks_gave_back() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        consume(workerA(), 1);

        var result = store.ackAndConsume(workerA(), ids("p-1"), 5, NO_WAIT);

        assertThat(result.taken()).extracting(lease -> lease.id().value()).containsExactly("p-2");
    }

    @Test
    void a_reject_gives_the_slot_back() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);

        store.reject(workerA(), ids("p-1"), Rejection.retryAfter(Duration.ofSeconds(10), "later"));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2");
    }

    @Test
    void a_failure_gives_the_slot_back() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);

        store.fail(workerA(), ids("p-1"), "broken");

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2");
    }

    @Test
    void a_release_gives_the_slot_back() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);

        store.release(workerA(), ids("p-1"));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-1");
    }

    @Test
    void a_dead_consumers_slots_come_back_with_its_tasks() {
        configure(s -> s.partitionConcurrency(1).queueConcurrency(2));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        given(numberedTasksIn(regularPartition("q"), "q-", 2));
        assertThat(consumeIds(workerA(), 5)).containsExactly("p-1", "q-1");
        letDefaultHeartbeatsExpire();

        store.reclaim();

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-1", "q-1");
    }

    @Test
    void a_task_timed_out_gives_its_slot_back() {
        configure(s -> s.partitionConcurrency(1).processingTimeout(Duration.ofSeconds(5)));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);
        advance(Duration.ofSeconds(5));
        store.heartbeat(workerA(), DEFAULT_TTL);

        store.reclaim();

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-1");
    }

    @Test
    void an_override_replaces_the_partition_cap() {
        Partition wide = regularPartition("wide");
        configure(s -> s.partitionConcurrency(1).partitionConcurrencyOverrides(Map.of(wide, 3)));
        given(numberedTasksIn(wide, "w-", 5));
        given(numberedTasksIn(regularPartition("narrow"), "n-", 5));

        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            taken.addAll(consumeIds(worker("w" + i), 1));
        }

        assertThat(taken).containsExactly("w-1", "n-1", "w-2", "w-3");
    }

    @Test
    void an_override_caps_its_partition_with_no_partition_cap_set() {
        Partition capped = regularPartition("capped");
        configure(s -> s.partitionConcurrencyOverrides(Map.of(capped, 1)));
        given(numberedTasksIn(capped, "c-", 3));
        given(numberedTasksIn(regularPartition("free"), "f-", 3));

        assertThat(consumeIds(workerA(), 10)).containsExactlyInAnyOrder("c-1", "f-1", "f-2", "f-3");
    }

    @Test
    void an_ordered_partition_keeps_its_batch_under_a_partition_cap() {
        configure(s -> s.partitionConcurrency(1));
        Partition ordered = orderedPartition("o");
        given(tasksIn(ordered, "o-1", "o-2", "o-3"));

        assertThat(consumeIds(workerA(), 10)).containsExactly("o-1", "o-2", "o-3");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LIMITS)
    void a_queue_at_its_cap_delivers_nothing_until_a_slot_frees() {
        configure(s -> s.queueConcurrency(3));
        for (String code : List.of("a", "b", "c", "d")) {
            given(numberedTasksIn(regularPartition(code), code + "-", 2));
        }

        assertThat(consumeIds(workerA(), 10)).containsExactly("a-1", "b-1", "c-1");
        assertThat(consumeIds(workerB(), 10)).isEmpty();

        store.ack(workerA(), ids("b-1"));

        assertThat(consumeIds(workerB(), 10)).containsExactly("d-1");
        assertThat(consumeIds(workerB(), 10)).isEmpty();
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LIMITS)
    void a_consume_takes_at_most_the_free_slots() {
        configure(s -> s.queueConcurrency(4));
        given(numberedTasksIn(regularPartition("p"), "p-", 10));

        assertThat(consumeIds(workerA(), 3)).hasSize(3);
        assertThat(consumeIds(workerB(), 5)).containsExactly("p-4");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LIMITS)
    void the_queue_cap_cuts_an_ordered_run() {
        configure(s -> s.queueConcurrency(2));
        given(tasksIn(orderedPartition("o"), "o-1", "o-2", "o-3"));

        assertThat(consumeIds(workerA(), 10)).containsExactly("o-1", "o-2");
        store.ack(workerA(), ids("o-1", "o-2"));
        assertThat(consumeIds(workerA(), 10)).containsExactly("o-3");
    }

    @Test
    void caps_set_while_tasks_are_in_flight_count_them() {
        given(numberedTasksIn(regularPartition("p"), "p-", 4));
        consume(workerA(), 2);

        configure(s -> s.partitionConcurrency(2));
        assertThat(consumeIds(workerB(), 5)).isEmpty();

        store.ack(workerA(), ids("p-1"));
        assertThat(consumeIds(workerB(), 5)).containsExactly("p-3");
    }

    @Test
    void raising_a_cap_lets_its_partition_deliver_again() {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        consume(workerA(), 5);

        configure(s -> s.partitionConcurrency(2));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2");
    }

    @Test
    void turning_the_caps_off_lets_everything_deliver() {
        configure(s -> s.partitionConcurrency(1).queueConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        consume(workerA(), 5);

        configure(s -> s.partitionConcurrency(0).queueConcurrency(0));
        store.ack(workerA(), ids("p-1"));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2", "p-3");
    }

    @Test
    void a_waiting_consume_takes_the_task_a_freed_slot_lets_through() throws Exception {
        configure(s -> s.partitionConcurrency(1));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);

        CompletableFuture<List<String>> waiting = CompletableFuture.supplyAsync(() -> store
                .consume(workerB(), 5, Duration.ofMillis(PROMPTLY_MILLIS * 5)).stream()
                .map(lease -> lease.id().value()).toList());
        Thread.sleep(50);
        long acked = System.nanoTime();
        store.ack(workerA(), ids("p-1"));

        assertThat(waiting.get(PROMPTLY_MILLIS * 10, TimeUnit.MILLISECONDS)).containsExactly("p-2");
        assertThat(millisSince(acked)).isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void caps_are_read_back_and_checked() {
        Partition p = regularPartition("p");
        QueueSettings capped = QueueSettings.builder().partitionConcurrency(3).queueConcurrency(10)
                .partitionConcurrencyOverrides(Map.of(p, 7)).build();
        store.configure(capped);

        assertThat(store.settings()).isEqualTo(capped);
        assertInvalid("partitionConcurrency", () -> QueueSettings.builder().partitionConcurrency(-1).build());
        assertInvalid("queueConcurrency", () -> QueueSettings.builder()
                .queueConcurrency(QueueSettings.MAX_CONCURRENCY + 1).build());
        assertInvalid("partitionConcurrencyOverrides", () -> QueueSettings.builder()
                .partitionConcurrencyOverrides(Map.of(orderedPartition("o"), 2)).build());
        assertInvalid("partitionConcurrencyOverrides[p]", () -> QueueSettings.builder()
                .partitionConcurrencyOverrides(Map.of(p, 0)).build());
    }
}
