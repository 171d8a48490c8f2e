package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.ports.RejectOutcome.RETURNED_WITH_BATCH;
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

/** Ordered partitions ({@code !name}): one task at a time, in order, held until it settles. */
public abstract class OrderedPartitionsContract extends ContractContext {
    protected OrderedPartitionsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void an_ordered_partition_delivers_a_consecutive_run_in_key_order() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));

        List<Lease> leases = consume(workerA(), 3);

        assertThat(idsOf(leases)).containsExactly("o1", "o2", "o3");
        assertThat(leases).extracting(Lease::leasedAt).containsOnly(now());
        assertThat(store.stats().lockedPartitions()).isEqualTo(1);
    }

    @Test
    void tasks_published_in_the_same_millisecond_keep_publish_order() {
        Partition ordered = orderedPartition();
        List<String> publishOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
        publishOrder.forEach(id -> given(task(id, ordered)));

        assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(publishOrder);
    }

    @Test
    void an_ordered_partition_takes_its_tasks_by_priority_then_due_time_then_seq() {
        Partition ordered = orderedPartition();
        given(task("normal", ordered), task("urgent-due-later", ordered).priority(5).delayedByMillis(1),
                task("urgent", ordered).priority(5), task("normal-too", ordered));
        advanceMillis(1);

        assertThat(consumeIds(workerA(), 4)).containsExactly("urgent", "urgent-due-later", "normal", "normal-too");
    }

    @Test
    void an_ordered_partition_is_never_held_by_two_consumers() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
        assertThat(consumeIds(workerA(), 2)).containsExactly("o1", "o2");

        assertThat(consume(workerB(), 10)).isEmpty();
        store.ack(workerA(), ids("o1"));
        assertThat(consume(workerB(), 10)).as("still held while o2 is in flight").isEmpty();
        store.ack(workerA(), ids("o2"));
        assertThat(consumeIds(workerB(), 10)).containsExactly("o3", "o4", "o5");
        assertThat(snapshot("o3").holder()).contains(workerB());
    }

    @Test
    void the_holder_itself_gets_nothing_more_from_its_held_partition() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 1);

        assertThat(consume(workerA(), 10)).isEmpty();
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void other_partitions_are_served_while_an_ordered_partition_is_held() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2"));
        given(task("r1", regularPartition()), task("p1", orderedPartition()));
        consume(workerA(), 1);

        assertThat(consumeIds(workerB(), 10)).containsExactly("r1", "p1");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void one_consume_takes_a_whole_ordered_run_and_goes_on_with_other_partitions() {
        Partition ordered = orderedPartition();
        Partition regular = regularPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        given(tasksIn(regular, "r1", "r2", "r3"));

        assertThat(consumeIds(workerA(), 10)).containsExactly("o1", "o2", "o3", "r1", "r2", "r3");
    }

    @Test
    void a_rejected_ordered_task_keeps_its_position() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 1);
        advance(Duration.ofSeconds(1));

        assertThat(store.reject(workerA(), ids("o1"), Rejection.retryNow("flaky")))
                .containsExactly(entry(id("o1"), RETURNED));

        List<Lease> leases = consume(workerB(), 10);
        assertThat(idsOf(leases)).containsExactly("o1", "o2", "o3");
        assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(2, 1, 1);
    }

    @Test
    void a_rejected_ordered_task_keeps_its_position_after_three_hundred_rejects_in_the_same_millisecond() {
        configure(s -> s.maxAttempts(QueueSettings.MAX_ATTEMPTS_LIMIT));
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "head", "second", "third"));

        for (int reject = 1; reject <= 300; reject++) {
            assertThat(consumeIds(workerA(), 1)).as("delivery %d", reject).containsExactly("head");
            assertThat(store.reject(workerA(), ids("head"), Rejection.retryNow("again")))
                    .containsExactly(entry(id("head"), RETURNED));
        }

        assertThat(snapshot("head").task().priority()).as("no priority inflation").isEqualTo(Priority.DEFAULT);
        List<Lease> leases = consume(workerA(), 3);
        assertThat(idsOf(leases)).containsExactly("head", "second", "third");
        assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(301, 1, 1);
    }

    @Test
    void rejects_do_not_inflate_priority() {
        Partition ordered = orderedPartition();
        given(task("rejected", ordered));
        for (int i = 0; i < 3; i++) {
            consume(workerA(), 1);
            store.reject(workerA(), ids("rejected"), Rejection.retryNow("again"));
        }
        given(task("slightly-urgent", ordered).priority(1));

        assertThat(consumeIds(workerA(), 2)).containsExactly("slightly-urgent", "rejected");
    }

    @Test
    void a_delayed_head_blocks_its_ordered_partition_until_due() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));

        assertThat(stateOf("o1")).isEqualTo(DELAYED);
        assertThat(stateOf("o2")).isEqualTo(PENDING);
        assertThat(consume(workerB(), 10)).isEmpty();
        advance(Duration.ofSeconds(10).minusMillis(1));
        assertThat(consume(workerB(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void a_delayed_high_priority_task_blocks_an_ordered_partition_but_not_a_regular_one() {
        Partition ordered = orderedPartition();
        Partition regular = regularPartition();
        given(task("ordered-urgent-later", ordered).priority(10).delayedBy(Duration.ofSeconds(5)), task("ordered-now", ordered));
        given(task("regular-urgent-later", regular).priority(10).delayedBy(Duration.ofSeconds(5)), task("regular-now", regular));

        assertThat(consumeIds(workerA(), 10)).containsExactly("regular-now");
        advance(Duration.ofSeconds(5));
        assertThat(consumeIds(workerB(), 10)).containsExactly("ordered-urgent-later", "ordered-now", "regular-urgent-later");
    }

    @Test
    void an_ordered_batch_stops_at_the_first_task_that_is_not_ready() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 3);
        store.reject(workerA(), ids("o2"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));
        store.ack(workerA(), ids("o1"));
        // Key order is now: urgent (ready), o2 (waits for its retry), o3 (ready).
        given(task("urgent", ordered).priority(1));

        assertThat(consumeIds(workerB(), 10)).containsExactly("urgent");
    }

    @Test
    void an_ordered_partition_holding_only_a_delayed_task_is_not_left_locked() {
        Partition ordered = orderedPartition();
        given(task("now", ordered), task("later", ordered).delayedBy(Duration.ofSeconds(10)));
        consume(workerA(), 10);
        store.ack(workerA(), ids("now"));

        assertThat(consume(workerA(), 10)).isEmpty();
        assertThat(store.stats().lockedPartitions()).isZero();
        advance(Duration.ofSeconds(10));
        assertThat(consumeIds(workerB(), 10)).containsExactly("later");
    }

    @Test
    void consuming_a_partition_whose_only_task_is_delayed_does_not_lock_it() {
        Partition ordered = orderedPartition();
        given(task("later", ordered).delayedBy(Duration.ofSeconds(10)));

        assertThat(consume(workerA(), 10)).isEmpty();
        assertThat(store.stats().lockedPartitions()).isZero();
        advance(Duration.ofSeconds(10));
        assertThat(consumeIds(workerB(), 10)).containsExactly("later");
    }

    @Test
    void rejecting_task_k_of_a_held_batch_returns_k_to_the_end_in_order() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
        consume(workerA(), 5);
        store.ack(workerA(), ids("o1"));

        Map<TaskId, RejectOutcome> outcomes = store.reject(workerA(), ids("o3"), Rejection.retryNow("o3 failed"));

        assertThat(outcomes).containsOnly(entry(id("o3"), RETURNED), entry(id("o4"), RETURNED_WITH_BATCH),
                entry(id("o5"), RETURNED_WITH_BATCH));
        assertThat(List.of("o3", "o4", "o5")).extracting(id -> snapshot(id).task().attempts()).containsExactly(1, 0, 0);
        assertThat(snapshot("o3").task().lastError()).isEqualTo("o3 failed");
        assertThat(snapshot("o4").task().lastError()).as("o4 never ran").isNull();
        assertThat(snapshot("o2").holder()).as("tasks before k stay held").contains(workerA());
        assertThat(consume(workerB(), 10)).as("o2 still holds the lock").isEmpty();

        assertThat(store.ack(workerA(), ids("o2", "o4"))).containsExactly(entry(id("o2"), ACKED),
                entry(id("o4"), AckOutcome.LEASE_LOST));
        List<Lease> leases = consume(workerB(), 10);
        assertThat(idsOf(leases)).containsExactly("o3", "o4", "o5");
        assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(2, 1, 1);
    }

    @Test
    void rejecting_several_tasks_of_a_held_batch_returns_everything_from_the_lowest_one() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3", "o4", "o5"));
        consume(workerA(), 5);

        Map<TaskId, RejectOutcome> outcomes = store.reject(workerA(), ids("o4", "o2"), Rejection.retryNow("failed"));

        assertThat(outcomes).containsOnly(entry(id("o4"), RETURNED), entry(id("o2"), RETURNED),
                entry(id("o3"), RETURNED_WITH_BATCH), entry(id("o5"), RETURNED_WITH_BATCH));
        assertThat(outcomes.keySet()).as("named ids in the order given").filteredOn(ids("o4", "o2")::contains)
                .containsExactly(id("o4"), id("o2"));
        assertThat(List.of("o2", "o3", "o4", "o5")).extracting(this::attemptsOf)
                .containsExactly(1, 0, 1, 0);
        store.ack(workerA(), ids("o1"));
        assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o3", "o4", "o5");
    }

    @Test
    void rejecting_with_a_delay_holds_the_returned_batch_behind_its_delayed_head() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 3);

        store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(5), "backoff"));

        assertThat(stateOf("o2")).as("readyAt of unnamed tasks is unchanged").isEqualTo(PENDING);
        assertThat(consume(workerB(), 10)).isEmpty();
        advance(Duration.ofSeconds(5));
        assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
    }

    @Test
    void a_held_batch_head_out_of_attempts_is_dead_lettered_and_the_rest_returned() {
        configure(s -> s.maxAttempts(1));
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 3);

        assertThat(store.reject(workerA(), ids("o1"), Rejection.retryNow("fatal"))).containsOnly(
                entry(id("o1"), RejectOutcome.DEAD_LETTERED), entry(id("o2"), RETURNED_WITH_BATCH),
                entry(id("o3"), RETURNED_WITH_BATCH));

        assertThat(stateOf("o1")).isEqualTo(DEAD);
        List<Lease> leases = consume(workerB(), 10);
        assertThat(idsOf(leases)).containsExactly("o2", "o3");
        assertThat(leases).extracting(lease -> lease.task().attempts()).containsExactly(1, 1);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void ordered_and_regular_partitions_with_the_same_name_are_different_partitions() {
        given(task("ordered", Partition.ordered("accounts")), task("ordered-2", Partition.ordered("accounts")),
                task("regular", Partition.regular("accounts")));
        consume(workerA(), 1);

        assertThat(consumeIds(workerB(), 10)).containsExactly("regular");
    }
}
