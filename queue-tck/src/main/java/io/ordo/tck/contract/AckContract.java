package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.QueueStats;
import org.junit.jupiter.api.Test;

import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Acknowledging tasks: outcomes per id and what an ack removes. */
public abstract class AckContract extends ContractContext {
    protected AckContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
