package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.tck.fixtures.TaskFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.AckOutcome.LEASE_LOST;
import static io.ordo.ports.CancelOutcome.CANCELLED;
import static io.ordo.ports.FailOutcome.DEAD_LETTERED;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.PublishOutcome.DUPLICATE;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.ConsumerFixture.workerC;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Consumer groups (docs/groups.md), what reaches them and what each keeps: every group of a queue gets its own
 * copy of each task published after it was created, and keeps its own state of it; an id is the queue's, so a
 * duplicate anywhere is one everywhere. {@code store} is the queue's own store; a group's store comes from
 * {@link GroupStoreUnderTest}, on the same backend. The tests keep each queue's tasks in one partition where
 * order matters, so a sharded queue runs them all. Creating, configuring and deleting groups:
 * {@link ConsumerGroupsAdminContract}.
 */
public abstract class ConsumerGroupsContract extends ConsumerGroupsContext {
    protected ConsumerGroupsContract(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest, groupStoreUnderTest);
    }

    // ---------------------------------------------------------------- delivery

    @Test
    void every_group_receives_every_task_published_after_its_creation_once_and_in_order() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        Partition ordered = orderedPartition();
        Partition regular = regularPartition();
        long publishedAt = now();

        given(tasksIn(ordered, "o1", "o2", "o3"));
        given(tasksIn(regular, "r1", "r2"));
        given(task("later", regular).delayedByMillis(1000));

        for (TaskStore group : List.of(billing, notify)) {
            List<Lease> leases = group.consume(workerA(), 10, NO_WAIT);
            assertThat(leasesIn(leases, ordered)).as(group.group() + " ordered").containsExactly("o1", "o2", "o3");
            assertThat(leasesIn(leases, regular)).as(group.group() + " regular").containsExactly("r1", "r2");
            assertThat(leases).allSatisfy(lease -> assertThat(lease.task().publishedAt()).isEqualTo(publishedAt));
            assertThat(leases.get(0).task().payload()).isEqualTo(TaskFixture.payloadOf(leases.get(0).id().value()));
            assertThat(group.ack(workerA(), ids("o1", "o2", "o3", "r1", "r2"))).containsOnlyKeys(
                    ids("o1", "o2", "o3", "r1", "r2")).doesNotContainValue(LEASE_LOST);
            assertThat(take(group, 10)).as(group.group() + ": nothing twice, the delayed one not yet").isEmpty();
        }
        advanceMillis(1000);
        assertThat(take(billing, 10)).containsExactly("later");
        assertThat(take(notify, 10)).containsExactly("later");
    }

    @Test
    void a_group_created_later_does_not_receive_earlier_tasks() {
        TaskStore billing = created(BILLING);
        Partition partition = regularPartition();
        given(tasksIn(partition, "before"));

        TaskStore notify = created(NOTIFY);
        given(tasksIn(partition, "after"));

        assertThat(take(billing, 10)).containsExactly("before", "after");
        assertThat(take(notify, 10)).containsExactly("after");
        assertThat(notify.get(id("before"))).isEmpty();
    }

    @Test
    void a_group_created_from_another_ones_backlog_gets_its_waiting_tasks_in_order_with_attempts_anew() {
        TaskStore billing = created(BILLING);
        Partition regular = regularPartition();
        Partition ordered = orderedPartition();
        given(tasksIn(regular, "r1", "r2", "r3"));
        assertThat(take(billing, 1)).containsExactly("r1"); // in flight in billing: not copied
        assertThat(take(billing, 1)).containsExactly("r2");
        billing.reject(workerA(), ids("r2"), Rejection.retryAfter(Duration.ZERO, "not now"));
        given(tasksIn(ordered, "o1", "o2"));

        assertThat(store.createGroup(NOTIFY, BILLING)).isTrue();
        TaskStore notify = groupStore(NOTIFY);
        given(tasksIn(regular, "r4"));

        List<Lease> copied = notify.consume(workerA(), 20, NO_WAIT);
        assertThat(leasesIn(copied, regular)).as("in their places, then the one published after")
                .containsExactly("r2", "r3", "r4");
        assertThat(leasesIn(copied, ordered)).containsExactly("o1", "o2");
        assertThat(copied).as("their attempts counted anew, no last error")
                .allSatisfy(lease -> assertThat(lease.task().attempts()).isEqualTo(1))
                .allSatisfy(lease -> assertThat(lease.task().lastErrorIfAny()).isEmpty());
        assertThat(notify.get(id("r1"))).isEmpty();
        assertThat(snapshotIn(billing, "r1").state()).as("billing's own untouched").isEqualTo(IN_FLIGHT);
        TaskSnapshot r2 = snapshotIn(billing, "r2");
        assertThat(r2.task().attempts()).isEqualTo(1);
        assertThat(r2.task().lastErrorIfAny()).contains("not now");
        assertThat(take(billing, 10)).containsExactlyInAnyOrder("r2", "r3", "o1", "o2", "r4");
    }

    @Test
    void a_backlog_must_be_of_another_existing_group_and_an_existing_group_gets_nothing() {
        TaskStore billing = created(BILLING);
        given(tasksIn(regularPartition(), "a"));

        assertInvalid("backlogOf", () -> store.createGroup(NOTIFY, GroupName.of("nobody")));
        assertThat(store.groups()).containsExactly(BILLING);
        assertInvalid("backlogOf", () -> store.createGroup(NOTIFY, NOTIFY));
        assertThat(store.createGroup(NOTIFY)).isTrue();
        assertThat(store.createGroup(NOTIFY, BILLING)).as("it exists").isFalse();
        assertThat(take(groupStore(NOTIFY), 10)).as("nothing copied into an existing group").isEmpty();
        assertThat(take(billing, 10)).containsExactly("a");
    }

    @Test
    void a_consume_waiting_in_a_group_returns_as_soon_as_a_publish_reaches_it() throws Exception {
        TaskStore billing = created(BILLING);
        CompletableFuture<List<Lease>> waiting = CompletableFuture.supplyAsync(
                () -> billing.consume(workerA(), 1, Duration.ofSeconds(10)));
        Thread.sleep(200); // the consume is waiting by now

        long start = System.nanoTime();
        given(task("a"));

        assertThat(idsOf(waiting.get(10, TimeUnit.SECONDS))).containsExactly("a");
        assertThat(millisSince(start)).isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void once_a_queue_has_a_group_its_own_view_receives_nothing_new_but_keeps_what_it_held() {
        Partition partition = regularPartition();
        given(tasksIn(partition, "held", "waiting"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("held");

        TaskStore billing = created(BILLING);
        given(tasksIn(partition, "new"));

        assertThat(store.get(id("new"))).isEmpty();
        assertThat(consumeIds(workerB(), 10)).containsExactly("waiting");
        assertThat(store.ack(workerA(), ids("held"))).containsExactly(entry(id("held"), ACKED));
        assertThat(store.ack(workerB(), ids("waiting"))).containsExactly(entry(id("waiting"), ACKED));
        assertThat(store.stats().publishedTotal()).isEqualTo(2);
        assertThat(take(billing, 10)).containsExactly("new");
    }

    @Test
    void deleting_the_last_group_makes_publishes_reach_the_own_view_again() {
        Partition partition = regularPartition();
        created(BILLING);
        created(NOTIFY);
        given(tasksIn(partition, "to-groups"));

        assertThat(store.deleteGroup(BILLING)).isTrue();
        given(tasksIn(partition, "to-notify"));
        assertThat(consume(workerA(), 10)).as("one group left: still not the own view").isEmpty();

        assertThat(store.deleteGroup(NOTIFY)).isTrue();
        given(tasksIn(partition, "to-own-view"));

        assertThat(store.groups()).isEmpty();
        assertThat(consumeIds(workerA(), 10)).containsExactly("to-own-view");
    }

    @Test
    void publishing_through_the_store_of_a_group_that_does_not_exist_publishes_to_the_queue() {
        Partition partition = regularPartition();
        TaskStore nowhere = groupStore(GroupName.of("nowhere"));

        publish(nowhere, task("plain", partition).build());
        assertThat(consumeIds(workerA(), 10)).as("no groups: the own view").containsExactly("plain");

        TaskStore billing = created(BILLING);
        publish(nowhere, task("fanned", partition).build());
        assertThat(take(billing, 10)).containsExactly("fanned");
        assertThat(store.groups()).containsExactly(BILLING);
    }

    @Test
    void a_publish_is_checked_against_the_queues_own_settings() {
        TaskStore billing = created(BILLING);
        configure(billing, settings -> settings.maxPayloadBytes(100));

        publish(billing, task("large").payload(TaskFixture.payloadOfSize(200)).build());

        assertThat(snapshotIn(billing, "large").task().payload()).hasSize(200);
        configure(s -> s.maxPayloadBytes(150)); // the queue's own settings: every group's too
        assertInvalid("tasks[0].payload",
                () -> billing.publish(List.of(task("larger").payload(TaskFixture.payloadOfSize(200)).build())));
        assertThat(billing.get(id("larger"))).isEmpty();
    }

    // ---------------------------------------------------------------- each group's own state

    @Test
    void acking_in_one_group_leaves_the_task_in_the_other_untouched() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));
        assertThat(take(billing, 1)).containsExactly("a");

        assertThat(billing.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));

        assertThat(billing.get(id("a"))).isEmpty();
        assertThat(snapshotIn(notify, "a").state()).isEqualTo(PENDING);
        List<Lease> leases = notify.consume(workerB(), 10, NO_WAIT);
        assertThat(idsOf(leases)).containsExactly("a");
        assertThat(leases.get(0).task().attempts()).isEqualTo(1);
        assertThat(notify.ack(workerB(), ids("a"))).containsExactly(entry(id("a"), ACKED));
    }

    @Test
    void rejecting_in_one_group_leaves_the_task_in_the_other_untouched() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));
        take(billing, 1);

        assertThat(billing.reject(workerA(), ids("a"), Rejection.retryAfter(Duration.ofMinutes(1), "later")))
                .containsExactly(entry(id("a"), RETURNED));

        assertThat(snapshotIn(billing, "a").state()).isEqualTo(DELAYED);
        assertThat(snapshotIn(notify, "a").state()).isEqualTo(PENDING);
        assertThat(snapshotIn(notify, "a").task().attempts()).isZero();
        assertThat(snapshotIn(notify, "a").task().lastErrorIfAny()).isEmpty();
        List<Lease> leases = notify.consume(workerB(), 10, NO_WAIT);
        assertThat(idsOf(leases)).containsExactly("a");
        assertThat(leases.get(0).task().attempts()).isEqualTo(1);
    }

    @Test
    void failing_in_one_group_leaves_the_task_in_the_other_untouched() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));
        take(billing, 1);

        assertThat(billing.fail(workerA(), ids("a"), "broken")).containsExactly(entry(id("a"), DEAD_LETTERED));

        assertThat(snapshotIn(billing, "a").state()).isEqualTo(DEAD);
        assertThat(billing.deadLetters(0, 10).total()).isEqualTo(1);
        assertThat(notify.deadLetters(0, 10).total()).isZero();
        List<Lease> leases = notify.consume(workerB(), 10, NO_WAIT);
        assertThat(idsOf(leases)).containsExactly("a");
        assertThat(leases.get(0).task().attempts()).isEqualTo(1);
        assertThat(notify.stats().deadLetteredTotal()).isZero();
    }

    @Test
    void cancelling_in_one_group_leaves_the_task_in_the_other_untouched() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));

        assertThat(billing.cancel(ids("a"))).containsExactly(entry(id("a"), CANCELLED));

        assertThat(billing.get(id("a"))).isEmpty();
        assertThat(take(billing, 10)).isEmpty();
        List<Lease> leases = notify.consume(workerB(), 10, NO_WAIT);
        assertThat(idsOf(leases)).containsExactly("a");
        assertThat(leases.get(0).task().attempts()).isEqualTo(1);
    }

    @Test
    void an_ordered_partitions_order_and_lock_hold_in_each_group_apart() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));

        assertThat(idsOf(billing.consume(workerA(), 1, NO_WAIT))).containsExactly("o1");
        assertThat(idsOf(notify.consume(workerB(), 1, NO_WAIT))).as("the same partition, held at the same time")
                .containsExactly("o1");
        assertThat(billing.stats().lockedPartitions()).isEqualTo(1);
        assertThat(notify.stats().lockedPartitions()).isEqualTo(1);
        assertThat(billing.consume(workerC(), 10, NO_WAIT)).as("locked by workerA in billing").isEmpty();

        billing.ack(workerA(), ids("o1"));

        assertThat(idsOf(billing.consume(workerC(), 1, NO_WAIT))).containsExactly("o2");
        assertThat(notify.consume(workerC(), 10, NO_WAIT)).as("still locked by workerB in notify").isEmpty();
        notify.ack(workerB(), ids("o1"));
        assertThat(idsOf(notify.consume(workerC(), 10, NO_WAIT))).containsExactly("o2", "o3");
    }

    @Test
    void reclaiming_a_dead_consumer_in_one_group_returns_its_tasks_in_that_group_only() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));
        assertThat(take(billing, 1)).containsExactly("a");
        assertThat(take(notify, 1)).as("the same consumer name in another group").containsExactly("a");
        advance(DEFAULT_TTL.dividedBy(2));
        notify.heartbeat(workerA(), DEFAULT_TTL);
        advance(DEFAULT_TTL.dividedBy(2));

        assertThat(billing.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0));
        assertThat(notify.reclaim()).isEqualTo(new ReclaimReport(List.of(), 0, 0, 0));

        assertThat(snapshotIn(billing, "a").state()).isEqualTo(PENDING);
        assertThat(snapshotIn(notify, "a").state()).isEqualTo(IN_FLIGHT);
        assertThat(snapshotIn(notify, "a").holder()).contains(workerA());
        assertThat(notify.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
    }

    @Test
    void seq_is_the_queues_so_a_task_has_the_same_seq_in_every_group() {
        TaskStore billing = created(BILLING);
        Partition partition = regularPartition();
        given(tasksIn(partition, "first"));
        TaskStore notify = created(NOTIFY);
        advanceMillis(5);

        given(tasksIn(partition, "second"));

        long billingFirst = snapshotIn(billing, "first").task().seq();
        Task billingSecond = snapshotIn(billing, "second").task();
        Task notifySecond = snapshotIn(notify, "second").task();
        assertThat(billingSecond.seq()).isEqualTo(billingFirst + 1);
        assertThat(notifySecond.seq()).as("notify's first task, numbered by the queue").isEqualTo(billingSecond.seq());
        assertThat(notifySecond.publishedAt()).isEqualTo(billingSecond.publishedAt()).isEqualTo(now());
    }

    @Test
    void stats_are_each_groups_own() {
        TaskStore billing = created(BILLING);
        Partition partition = regularPartition();
        given(tasksIn(partition, "a", "b"));
        TaskStore notify = created(NOTIFY);
        given(tasksIn(partition, "c"));
        take(billing, 2);
        billing.ack(workerA(), ids("a"));

        QueueStats billingStats = billing.stats();
        assertThat(billingStats.publishedTotal()).isEqualTo(3);
        assertThat(billingStats.ackedTotal()).isEqualTo(1);
        assertThat(billingStats.inFlight()).isEqualTo(1);
        assertThat(billingStats.ready()).isEqualTo(1);
        assertThat(billingStats.liveConsumers()).isEqualTo(1);
        QueueStats notifyStats = notify.stats();
        assertThat(notifyStats.publishedTotal()).as("the tasks it received").isEqualTo(1);
        assertThat(notifyStats.ackedTotal()).isZero();
        assertThat(notifyStats.inFlight()).isZero();
        assertThat(notifyStats.ready()).isEqualTo(1);
        assertThat(notifyStats.liveConsumers()).isZero();
        assertThat(store.stats().publishedTotal()).as("the own view").isZero();
    }

    // ---------------------------------------------------------------- duplicates

    @Test
    void a_duplicate_of_an_id_held_in_any_group_or_the_own_view_writes_nothing_anywhere() {
        Partition partition = regularPartition();
        given(tasksIn(partition, "in-own-view"));
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(tasksIn(partition, "x"));
        take(billing, 1);
        billing.ack(workerA(), ids("x")); // billing forgets x (no dedup window); notify still holds it

        assertThat(store.publish(List.of(task("x", partition).build(), task("y", partition).build(),
                task("in-own-view", partition).build())))
                .containsExactly(receipt("x", DUPLICATE), receipt("y", CREATED), receipt("in-own-view", DUPLICATE));

        assertThat(billing.get(id("x"))).as("not written again where it was acked").isEmpty();
        assertThat(billing.get(id("in-own-view"))).isEmpty();
        assertThat(notify.get(id("in-own-view"))).isEmpty();
        assertThat(take(billing, 10)).containsExactly("y");
        assertThat(take(notify, 10)).containsExactly("x", "y");
        assertThat(billing.stats().publishedTotal()).isEqualTo(2);
        assertThat(notify.stats().publishedTotal()).isEqualTo(2);
    }

    @Test
    void an_id_one_group_remembers_in_its_dedup_window_is_a_duplicate_for_the_queue() {
        Partition partition = regularPartition();
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        configure(billing, settings -> settings.dedupWindow(Duration.ofMinutes(10)));
        given(tasksIn(partition, "x"));
        take(billing, 1);
        billing.ack(workerA(), ids("x"));
        take(notify, 1);
        notify.ack(workerA(), ids("x"));

        assertThat(store.publish(tasksIn(partition, "x"))).containsExactly(receipt("x", DUPLICATE));
        assertThat(notify.get(id("x"))).isEmpty();

        advance(Duration.ofMinutes(10));
        assertThat(store.publish(tasksIn(partition, "x"))).containsExactly(receipt("x", CREATED));
        assertThat(take(notify, 10)).containsExactly("x");
    }
}
