package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.QueueStats;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Cancelling waiting tasks and dead letters (tasks in flight: {@link TaskControlContract}). */
public abstract class CancelContract extends ContractContext {
    protected CancelContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void outcomes_come_back_in_the_order_of_the_ids_given() {
        given(task("held"), task("waiting"));
        consume(workerA(), 1);

        assertThat(store.cancel(ids("waiting", "nobody", "held"))).containsExactly(
                entry(id("waiting"), CancelOutcome.CANCELLED), entry(id("nobody"), CancelOutcome.UNKNOWN),
                entry(id("held"), CancelOutcome.CANCEL_REQUESTED));
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
