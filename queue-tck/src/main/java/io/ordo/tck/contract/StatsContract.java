package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.QueueStats;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_IDS;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Queue statistics: counts now and totals since the queue began. */
public abstract class StatsContract extends ContractContext {
    protected StatsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_new_queue_is_empty() {
        assertThat(store.stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false));
    }

    @Test
    void ready_and_delayed_count_waiting_tasks_by_their_own_readiness() {
        Partition ordered = orderedPartition();
        Partition blocked = regularPartition();
        given(tasksIn(ordered, "o1", "o2"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "backoff"));
        given(task("blocked", blocked), task("plain"), task("later").delayedBy(Duration.ofSeconds(5)));
        store.blockPartition(blocked, Duration.ofMinutes(1));

        QueueStats stats = store.stats();

        assertThat(stats.ready()).as("o2, blocked, plain").isEqualTo(3);
        assertThat(stats.delayed()).as("o1, later").isEqualTo(2);
        advance(Duration.ofSeconds(5));
        assertThat(store.stats().ready()).isEqualTo(4);
        assertThat(store.stats().delayed()).isEqualTo(1);
    }

    @Test
    void in_flight_counts_tasks_held_by_consumers() {
        given(task("a"), task("b"), task("c"));
        consume(workerA(), 1);
        consume(workerB(), 1);

        assertThat(store.stats().inFlight()).isEqualTo(2);
        assertThat(store.stats().ready()).isEqualTo(1);
    }

    @Test
    void dead_counts_dead_letters() {
        given(task("a"), task("b"));
        consume(workerA(), 2);
        store.fail(workerA(), ids("a", "b"), "broken");

        assertThat(store.stats().dead()).isEqualTo(2);
        store.purgeDeadLetters(ids("a"));
        assertThat(store.stats().dead()).isEqualTo(1);
    }

    @Test
    void active_partitions_count_partitions_with_waiting_tasks() {
        Partition regular = regularPartition();
        Partition ordered = orderedPartition();
        given(tasksIn(regular, "r1", "r2"));
        given(tasksIn(ordered, "o1"));
        given(task("later").delayedBy(Duration.ofMinutes(1)));
        assertThat(store.stats().activePartitions()).isEqualTo(3);

        consume(workerA(), 10);

        assertThat(store.stats().activePartitions()).as("only 'later' still waits").isEqualTo(1);
    }

    @Test
    void locked_partitions_count_ordered_partitions_held() {
        Partition first = orderedPartition();
        Partition second = orderedPartition();
        given(tasksIn(first, "f1", "f2"));
        given(tasksIn(second, "s1"));
        given(task("regular"));
        consume(workerA(), 10);

        assertThat(store.stats().lockedPartitions()).isEqualTo(2);
        store.ack(workerA(), ids("f1", "f2"));
        assertThat(store.stats().lockedPartitions()).isEqualTo(1);
    }

    @Test
    void blocked_partitions_count_blocks_in_force_only() {
        store.blockPartition(regularPartition(), Duration.ofSeconds(10));
        Partition longer = regularPartition();
        store.blockPartition(longer, Duration.ofSeconds(20));
        store.blockPartition(orderedPartition(), Duration.ofSeconds(30));

        assertThat(store.stats().blockedPartitions()).isEqualTo(3);
        advance(Duration.ofSeconds(10));
        assertThat(store.stats().blockedPartitions()).isEqualTo(2);
        store.unblockPartition(longer);
        assertThat(store.stats().blockedPartitions()).isEqualTo(1);
    }

    @Test
    void live_consumers_count_fresh_heartbeats() {
        store.heartbeat(workerA(), Duration.ofSeconds(10));
        consume(workerB(), 1);

        assertThat(store.stats().liveConsumers()).isEqualTo(2);
        advance(Duration.ofSeconds(10));
        assertThat(store.stats().liveConsumers()).isEqualTo(1);
        advance(DEFAULT_TTL);
        assertThat(store.stats().liveConsumers()).isZero();
    }

    @Test
    void oldest_due_age_is_how_long_the_longest_waiting_due_task_has_been_due() {
        Partition regular = regularPartition();
        given(task("a", regular));
        advance(Duration.ofSeconds(3));
        given(task("b", regular), task("later").delayedBy(Duration.ofSeconds(1)));

        assertThat(store.stats().oldestDueAgeMillis()).isEqualTo(3_000);
        consume(workerA(), 1);
        assertThat(store.stats().oldestDueAgeMillis()).as("b was just published").isZero();
        advance(Duration.ofSeconds(2));
        assertThat(store.stats().oldestDueAgeMillis()).as("b due 2 s ago, later due 1 s ago").isEqualTo(2_000);
        consume(workerA(), 10);
        assertThat(store.stats().oldestDueAgeMillis()).isZero();
    }

    @Test
    void oldest_due_age_counts_from_when_a_task_became_ready() {
        given(task("published-delayed").delayedBy(Duration.ofSeconds(10)));
        Partition ordered = orderedPartition();
        given(task("retried", ordered));
        consume(workerA(), 1);
        store.reject(workerA(), ids("retried"), Rejection.retryAfter(Duration.ofSeconds(20), "backoff"));
        advance(Duration.ofSeconds(15));

        assertThat(store.stats().oldestDueAgeMillis()).as("ready 5 s ago, published 15 s ago").isEqualTo(5_000);
        consume(workerA(), 1);
        advance(Duration.ofSeconds(10));
        assertThat(store.stats().oldestDueAgeMillis()).as("ready 5 s ago, its dueAt 25 s ago").isEqualTo(5_000);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_IDS)
    void totals_count_creations_acks_and_dead_letterings_since_the_queue_began() {
        given(task("a"), task("b"), task("c"));
        store.publish(List.of(task("a").build()));
        consume(workerA(), 3);
        store.ack(workerA(), ids("a"));
        store.ack(workerA(), ids("a"));
        store.fail(workerA(), ids("b"), "broken");
        store.release(workerA(), ids("c"));
        store.cancel(ids("c"));
        store.redrive(ids("b"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("b"));

        QueueStats stats = store.stats();

        assertThat(stats.publishedTotal()).isEqualTo(3);
        assertThat(stats.ackedTotal()).isEqualTo(2);
        assertThat(stats.deadLetteredTotal()).isEqualTo(1);
    }

    @Test
    void paused_tells_whether_the_queue_is_paused() {
        store.pause();
        assertThat(store.stats().paused()).isTrue();
        store.resume();
        assertThat(store.stats().paused()).isFalse();
    }
}
