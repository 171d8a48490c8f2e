package io.ordo.tck.contract;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
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

/** Rejecting tasks: back to the queue after a delay, with attempts counted, or blocking their partition. */
public abstract class RejectContract extends ContractContext {
    protected RejectContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_rejected_task_goes_back_with_its_reason_and_the_attempt_counted() {
        given(task("a"));
        consume(workerA(), 1);

        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("bank timed out")))
                .containsExactly(entry(id("a"), RETURNED));

        TaskSnapshot snapshot = snapshot("a");
        assertThat(snapshot.state()).isEqualTo(PENDING);
        assertThat(snapshot.holder()).isEmpty();
        assertThat(snapshot.task().attempts()).isEqualTo(1);
        assertThat(snapshot.task().lastError()).isEqualTo("bank timed out");
        assertThat(consume(workerB(), 1)).extracting(lease -> lease.task().attempts()).containsExactly(2);
    }

    @Test
    void reject_with_a_delay_is_honoured_in_regular_partitions_too() {
        given(task("a"));
        consume(workerA(), 1);

        store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(5), "later"));

        assertThat(stateOf("a")).isEqualTo(DELAYED);
        assertThat(snapshot("a").task().readyAt()).isEqualTo(now() + 5_000);
        assertThat(snapshot("a").task().dueAt()).isEqualTo(now() + 5_000);
        advance(Duration.ofSeconds(5).minusMillis(1));
        assertThat(consume(workerB(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerB(), 10)).containsExactly("a");
    }

    @Test
    void a_retry_delay_moves_a_regular_task_behind_tasks_due_before_it() {
        Partition regular = regularPartition();
        given(tasksIn(regular, "a", "b", "c"));
        consume(workerA(), 1);

        store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(1), "later"));
        advance(Duration.ofSeconds(2));

        assertThat(consumeIds(workerB(), 3)).containsExactly("b", "c", "a");
    }

    @Test
    void a_task_rejected_at_max_attempts_becomes_a_dead_letter_with_the_reason() {
        configure(s -> s.maxAttempts(2));
        given(task("a"));
        consume(workerA(), 1);
        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("broken"))).containsExactly(entry(id("a"), RETURNED));
        consume(workerA(), 1);
        advance(Duration.ofSeconds(1));

        assertThat(store.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofSeconds(9), "still broken")))
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));

        TaskSnapshot snapshot = snapshot("a");
        assertThat(snapshot.state()).isEqualTo(DEAD);
        assertThat(snapshot.holder()).isEmpty();
        assertThat(snapshot.task().attempts()).isEqualTo(2);
        assertThat(snapshot.task().lastError()).isEqualTo("still broken");
        DeadLetterPage page = store.deadLetters(0, 10);
        assertThat(page.items()).hasSize(1);
        DeadLetter dead = page.items().get(0);
        assertThat(dead.id()).isEqualTo(id("a"));
        assertThat(dead.reason()).isEqualTo("still broken");
        assertThat(dead.attempts()).isEqualTo(2);
        assertThat(dead.deadAt()).isEqualTo(now());
        assertThat(store.stats().inFlight()).isZero();
    }

    @Test
    void the_default_max_attempts_is_five() {
        given(task("a"));
        for (int attempt = 1; attempt <= 4; attempt++) {
            consume(workerA(), 1);
            assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no"))).as("attempt %d", attempt)
                    .containsExactly(entry(id("a"), RETURNED));
        }
        consume(workerA(), 1);

        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no")))
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void reject_can_block_the_partition_in_the_same_step() {
        Partition regular = regularPartition();
        given(tasksIn(regular, "a", "b"));
        given(task("elsewhere"));
        consume(workerA(), 1);

        store.reject(workerA(), ids("a"), Rejection.rateLimited(Duration.ofSeconds(10), "429 from the API"));

        assertThat(store.stats().blockedPartitions()).isEqualTo(1);
        assertThat(consumeIds(workerB(), 10)).containsExactly("elsewhere");
        advance(Duration.ofSeconds(10).minusMillis(1));
        assertThat(consume(workerB(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerB(), 10)).containsExactly("b", "a");
    }

    @Test
    void a_blocking_reject_keeps_a_longer_block_already_in_force() {
        Partition regular = regularPartition();
        given(task("a", regular));
        consume(workerA(), 1);
        store.blockPartition(regular, Duration.ofSeconds(60));

        store.reject(workerA(), ids("a"), new Rejection(Duration.ZERO, "slow down", Duration.ofSeconds(10)));

        advance(Duration.ofSeconds(10));
        assertThat(consume(workerB(), 10)).isEmpty();
        advance(Duration.ofSeconds(50));
        assertThat(consumeIds(workerB(), 10)).containsExactly("a");
    }

    @Test
    void rejecting_a_task_not_held_is_lease_lost_and_changes_nothing() {
        Partition regular = regularPartition();
        given(tasksIn(regular, "held", "waiting"));
        consume(workerA(), 1);

        Map<TaskId, RejectOutcome> outcomes = store.reject(workerB(), ids("held", "waiting", "unknown"),
                Rejection.rateLimited(Duration.ofSeconds(10), "not mine"));

        assertThat(outcomes).containsExactly(entry(id("held"), RejectOutcome.LEASE_LOST),
                entry(id("waiting"), RejectOutcome.LEASE_LOST), entry(id("unknown"), RejectOutcome.LEASE_LOST));
        assertThat(snapshot("held").holder()).contains(workerA());
        assertThat(snapshot("held").task().attempts()).isEqualTo(1);
        assertThat(snapshot("held").task().lastError()).isNull();
        assertThat(snapshot("waiting").task().lastError()).isNull();
        assertThat(store.stats().blockedPartitions()).as("only held tasks block their partition").isZero();
    }

    @Test
    void outcomes_come_back_in_the_order_of_the_ids_given() {
        given(task("a"), task("b"));
        consume(workerA(), 2);

        assertThat(store.reject(workerA(), ids("b", "unknown", "a"), Rejection.retryNow("no"))).containsExactly(
                entry(id("b"), RETURNED), entry(id("unknown"), RejectOutcome.LEASE_LOST), entry(id("a"), RETURNED));
    }

    @Test
    void rejecting_the_last_held_task_of_an_ordered_partition_releases_its_lock() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2"));
        consume(workerA(), 1);

        store.reject(workerA(), ids("o1"), Rejection.retryNow("no"));

        assertThat(store.stats().lockedPartitions()).isZero();
        assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2");
    }
}
