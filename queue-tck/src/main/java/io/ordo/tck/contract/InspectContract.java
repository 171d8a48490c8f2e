package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.QueueStats;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.ConsumerFixture.workerC;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Inspecting a queue: partitions, locks, blocks and consumers at the backend time. */
public abstract class InspectContract extends ContractContext {
    protected InspectContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private static final int LIMIT = 100;

    private Instant at(long millis) {
        return Instant.ofEpochMilli(millis);
    }

    @Test
    void an_empty_queue_inspects_as_empty_lists_and_zero_totals_at_the_backend_time() {
        advance(Duration.ofSeconds(3));

        assertThat(store.inspect(LIMIT)).isEqualTo(new QueueInspection(at(now()),
                List.of(), 0, List.of(), 0, List.of(), 0, List.of(), 0));
    }

    @Test
    void busiest_partitions_come_most_waiting_first_and_ties_by_code() {
        Partition two = regularPartition("two");
        Partition alsoTwo = orderedPartition("also-two");
        Partition three = regularPartition("three");
        Partition one = regularPartition("one");
        given(tasksIn(two, "t1", "t2"));
        given(tasksIn(one, "o1"));
        given(tasksIn(three, "h1", "h2", "h3"));
        given(tasksIn(alsoTwo, "a1", "a2"));

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.busiestPartitions()).containsExactly(
                new PartitionBacklog(three, 3, 3),
                new PartitionBacklog(alsoTwo, 2, 2), // "!also-two" sorts before "two"
                new PartitionBacklog(two, 2, 2),
                new PartitionBacklog(one, 1, 1));
        assertThat(inspection.totalPartitions()).isEqualTo(4);
    }

    @Test
    void ties_follow_javas_string_order_even_beyond_the_basic_multilingual_plane() {
        Partition replacement = regularPartition("\uFFFD");
        Partition emoji = regularPartition("\uD83D\uDE00"); // a surrogate pair: before U+FFFD in Java's order
        Partition ascii = regularPartition("z");
        given(task("r", replacement), task("e", emoji), task("a", ascii));
        store.blockPartition(replacement, Duration.ofSeconds(1));
        store.blockPartition(emoji, Duration.ofSeconds(1));

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::partition)
                .containsExactly(ascii, emoji, replacement);
        assertThat(inspection.blocks()).extracting(PartitionBlock::partition).containsExactly(emoji, replacement);
        assertThat(store.inspect(2).busiestPartitions()).extracting(PartitionBacklog::partition)
                .containsExactly(ascii, emoji);
    }

    @Test
    void waiting_counts_due_and_delayed_tasks_but_not_those_in_flight_and_due_only_those_ready_now() {
        Partition partition = regularPartition();
        given(task("taken", partition), task("due", partition),
                task("later", partition).delayedBy(Duration.ofSeconds(10)));
        assertThat(consumeIds(workerA(), 1)).containsExactly("taken");

        assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(partition, 2, 1));
        advance(Duration.ofSeconds(10));
        assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(partition, 2, 2));
    }

    @Test
    void a_retry_waiting_for_its_delay_is_waiting_but_not_due_even_at_the_head_of_an_ordered_partition() {
        Partition ordered = orderedPartition();
        given(task("o1", ordered).priority(5).header("trace", "t-1"), task("o2", ordered).priority(5));
        consume(workerA(), 1);
        store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofSeconds(10), "downstream said no"));

        assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(ordered, 2, 1));
        advance(Duration.ofSeconds(10));
        assertThat(store.inspect(LIMIT).busiestPartitions()).containsExactly(new PartitionBacklog(ordered, 2, 2));
    }

    @Test
    void a_partition_with_only_tasks_in_flight_or_dead_is_not_listed() {
        Partition partition = regularPartition();
        given(tasksIn(partition, "a", "b"));
        consume(workerA(), 2);
        store.fail(workerA(), ids("a"), "broken");

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.busiestPartitions()).isEmpty();
        assertThat(inspection.totalPartitions()).isZero();
    }

    @Test
    void a_lock_names_its_holder_when_it_was_taken_and_what_the_holder_has_in_flight() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        advance(Duration.ofSeconds(2));
        long takenAt = now();
        assertThat(consumeIds(workerA(), 2)).containsExactly("o1", "o2");
        advance(Duration.ofSeconds(5));
        store.ack(workerA(), ids("o1"));

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.locks()).containsExactly(new PartitionLock(ordered, workerA(), at(takenAt), 1));
        assertThat(inspection.totalLocks()).isEqualTo(1);
        assertThat(inspection.busiestPartitions()).as("o3 still waits behind the held batch")
                .containsExactly(new PartitionBacklog(ordered, 1, 1));
    }

    @Test
    void locks_come_longest_held_first_and_ties_by_code() {
        Partition b = orderedPartition("b");
        Partition a = orderedPartition("a");
        Partition first = orderedPartition("z-first");
        given(tasksIn(first, "f1"));
        long firstTakenAt = now();
        consume(workerC(), 1);
        advance(Duration.ofSeconds(1));
        given(tasksIn(b, "b1"));
        given(tasksIn(a, "a1"));
        given(task("regular"));
        consume(workerA(), 10);

        assertThat(store.inspect(LIMIT).locks()).containsExactly(
                new PartitionLock(first, workerC(), at(firstTakenAt), 1),
                new PartitionLock(a, workerA(), at(now()), 1),
                new PartitionLock(b, workerA(), at(now()), 1));
    }

    @Test
    void a_lock_is_gone_once_its_holder_has_nothing_of_the_partition_in_flight() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2"));
        consume(workerA(), 2);

        store.ack(workerA(), ids("o1", "o2"));

        QueueInspection inspection = store.inspect(LIMIT);
        assertThat(inspection.locks()).isEmpty();
        assertThat(inspection.totalLocks()).isZero();
    }

    @Test
    void a_lock_taken_again_reports_the_new_holder_and_time() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("o1"));
        advance(Duration.ofSeconds(3));

        consume(workerB(), 1);

        assertThat(store.inspect(LIMIT).locks()).containsExactly(new PartitionLock(ordered, workerB(), at(now()), 1));
    }

    @Test
    void blocks_in_force_come_soonest_unblocked_first_with_their_end_and_expired_ones_vanish() {
        Partition later = regularPartition("later");
        Partition sooner = orderedPartition("sooner");
        Partition tiedA = regularPartition("tied-a");
        Partition tiedB = regularPartition("tied-b");
        long start = now();
        store.blockPartition(later, Duration.ofSeconds(30));
        store.blockPartition(tiedB, Duration.ofSeconds(20));
        store.blockPartition(tiedA, Duration.ofSeconds(20));
        store.blockPartition(sooner, Duration.ofSeconds(10));

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.blocks()).containsExactly(
                new PartitionBlock(sooner, at(start + 10_000)),
                new PartitionBlock(tiedA, at(start + 20_000)),
                new PartitionBlock(tiedB, at(start + 20_000)),
                new PartitionBlock(later, at(start + 30_000)));
        assertThat(inspection.totalBlocks()).isEqualTo(4);
        advance(Duration.ofSeconds(20));
        assertThat(store.inspect(LIMIT).blocks()).containsExactly(new PartitionBlock(later, at(start + 30_000)));
        store.unblockPartition(later);
        assertThat(store.inspect(LIMIT).totalBlocks()).isZero();
    }

    @Test
    void a_block_set_by_reject_is_listed() {
        Partition partition = regularPartition();
        given(task("a", partition));
        consume(workerA(), 1);

        store.reject(workerA(), ids("a"), Rejection.rateLimited(Duration.ofSeconds(15), "rate limited"));

        assertThat(store.inspect(LIMIT).blocks()).containsExactly(new PartitionBlock(partition, at(now() + 15_000)));
    }

    @Test
    void consumers_come_latest_heartbeat_first_with_expiry_liveness_and_tasks_in_flight() {
        given(task("a"), task("b"), task("c"));
        long start = now();
        store.heartbeat(workerA(), Duration.ofSeconds(10));
        advance(Duration.ofSeconds(2));
        consume(workerB(), 2); // a consume registers the consumer, with the queue's heartbeat TTL
        advance(Duration.ofSeconds(1));
        store.heartbeat(workerC(), Duration.ofSeconds(1));
        advance(Duration.ofSeconds(2));

        QueueInspection inspection = store.inspect(LIMIT);

        assertThat(inspection.consumers()).containsExactly(
                new ConsumerPresence(workerC(), at(start + 3_000), at(start + 4_000), false, 0),
                new ConsumerPresence(workerB(), at(start + 2_000), at(start + 2_000).plus(DEFAULT_TTL), true, 2),
                new ConsumerPresence(workerA(), at(start), at(start + 10_000), true, 0));
        assertThat(inspection.totalConsumers()).isEqualTo(3);
    }

    @Test
    void a_consume_counts_as_a_heartbeat_but_never_shortens_the_expiry() {
        given(task("a"));
        store.heartbeat(workerA(), Duration.ofHours(1));
        long expiresAt = now() + 3_600_000;
        advance(Duration.ofSeconds(5));

        consume(workerA(), 1);

        assertThat(store.inspect(LIMIT).consumers())
                .containsExactly(new ConsumerPresence(workerA(), at(now()), at(expiresAt), true, 1));
    }

    @Test
    void consumers_with_equal_heartbeats_come_by_name() {
        store.heartbeat(workerB(), Duration.ofSeconds(10));
        store.heartbeat(workerA(), Duration.ofSeconds(10));

        assertThat(store.inspect(LIMIT).consumers()).extracting(ConsumerPresence::consumer)
                .containsExactly(workerA(), workerB());
    }

    @Test
    void a_dead_consumer_is_listed_until_reclaimed_and_then_gone() {
        given(task("a"));
        consume(workerA(), 1);
        letDefaultHeartbeatsExpire();

        assertThat(store.inspect(LIMIT).consumers()).singleElement()
                .satisfies(presence -> assertThat(presence.alive()).isFalse())
                .satisfies(presence -> assertThat(presence.inFlight()).isEqualTo(1));
        store.reclaim();

        QueueInspection inspection = store.inspect(LIMIT);
        assertThat(inspection.consumers()).isEmpty();
        assertThat(inspection.totalConsumers()).isZero();
        assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::waiting).containsExactly(1L);
    }

    @Test
    void each_list_is_cut_at_the_limit_while_the_totals_count_everything() {
        given(tasksIn(orderedPartition("first"), "f1", "f2"));
        consume(workerB(), 1); // locks !first
        advance(Duration.ofSeconds(1));
        given(tasksIn(orderedPartition("second"), "x1"));
        consume(workerC(), 1); // locks !second, the only partition it may take from
        store.heartbeat(workerA(), Duration.ofMinutes(1));
        given(tasksIn(regularPartition("big"), "b1", "b2", "b3"));
        given(tasksIn(regularPartition("small"), "s1"));
        store.blockPartition(regularPartition("blocked-1"), Duration.ofSeconds(1));
        store.blockPartition(regularPartition("blocked-2"), Duration.ofSeconds(2));

        QueueInspection inspection = store.inspect(1);

        assertThat(inspection.busiestPartitions()).containsExactly(new PartitionBacklog(regularPartition("big"), 3, 3));
        assertThat(inspection.totalPartitions()).as("big, small, !first").isEqualTo(3);
        assertThat(inspection.locks()).extracting(PartitionLock::partition).containsExactly(orderedPartition("first"));
        assertThat(inspection.totalLocks()).isEqualTo(2);
        assertThat(inspection.blocks()).extracting(PartitionBlock::partition)
                .containsExactly(regularPartition("blocked-1"));
        assertThat(inspection.totalBlocks()).isEqualTo(2);
        assertThat(inspection.consumers()).as("a and c tie on the latest heartbeat").extracting(ConsumerPresence::consumer)
                .containsExactly(workerA());
        assertThat(inspection.totalConsumers()).isEqualTo(3);
    }

    @Test
    void the_cut_keeps_the_busiest_partitions() {
        for (int size = 1; size <= 5; size++) {
            given(numberedTasksIn(regularPartition("p" + size), "p" + size + "-", size));
        }

        QueueInspection inspection = store.inspect(2);

        assertThat(inspection.busiestPartitions()).extracting(PartitionBacklog::partition)
                .containsExactly(regularPartition("p5"), regularPartition("p4"));
        assertThat(inspection.totalPartitions()).isEqualTo(5);
    }

    @Test
    void the_largest_limit_is_accepted() {
        given(task("a"));

        assertThat(store.inspect(QueueInspection.MAX_LIMIT).totalPartitions()).isEqualTo(1);
    }

    @Test
    void a_limit_outside_one_to_the_maximum_is_rejected_naming_limit() {
        assertInvalid("limit", () -> store.inspect(0));
        assertInvalid("limit", () -> store.inspect(-1));
        assertInvalid("limit", () -> store.inspect(QueueInspection.MAX_LIMIT + 1));
    }

    @Test
    void inspecting_changes_nothing() {
        given(task("a"), task("later").delayedBy(Duration.ofSeconds(5)));
        store.blockPartition(regularPartition(), Duration.ofSeconds(1));
        QueueStats before = store.stats();

        store.inspect(LIMIT);
        store.inspect(1);

        assertThat(store.stats()).isEqualTo(before);
        assertThat(consumeIds(workerA(), 10)).containsExactly("a");
    }
}
