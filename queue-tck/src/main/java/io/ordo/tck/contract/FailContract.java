package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Failing tasks: straight to the dead letters. */
public abstract class FailContract extends ContractContext {
    protected FailContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
