package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Releasing tasks unchanged, as if never taken. */
public abstract class ReleaseContract extends ContractContext {
    protected ReleaseContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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

        assertThat(List.of("o3", "o4")).extracting(this::attemptsOf).containsExactly(0, 0);
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
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
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
