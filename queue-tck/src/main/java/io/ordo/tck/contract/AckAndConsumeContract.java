package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Acknowledging and taking the next tasks in one step. */
public abstract class AckAndConsumeContract extends ContractContext {
    protected AckAndConsumeContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
