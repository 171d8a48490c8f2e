package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Blocking a partition for a while, and unblocking it. */
public abstract class BlockPartitionContract extends ContractContext {
    protected BlockPartitionContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
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
