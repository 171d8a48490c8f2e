package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Reading one task and its state by id. */
public abstract class GetContract extends ContractContext {
    protected GetContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
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
