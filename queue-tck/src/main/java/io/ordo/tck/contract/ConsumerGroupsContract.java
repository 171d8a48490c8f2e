package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.domain.Task;
import io.ordo.ports.ConsumerGroups;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.tck.fixtures.TaskFixture;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * Consumer groups (docs/groups.md): every group of a queue gets its own copy of each task published after
 * it was created, and keeps its own state of it. {@code store} is the queue's own store; a group's store
 * comes from {@link GroupStoreUnderTest}, on the same backend. The tests keep each queue's tasks in one
 * partition where order matters, so a sharded queue runs them all.
 */
public abstract class ConsumerGroupsContract extends ContractContext {
    private static final GroupName BILLING = GroupName.of("billing");
    private static final GroupName NOTIFY = GroupName.of("notify");

    private final GroupStoreUnderTest groupStoreUnderTest;

    protected ConsumerGroupsContract(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest);
        this.groupStoreUnderTest = groupStoreUnderTest;
    }

    /** The store of a group of this test's queue; the group need not exist. */
    protected TaskStore groupStore(GroupName group) {
        return groupStoreUnderTest.create(queue, group, clock);
    }

    /** Creates the group and returns its store. */
    private TaskStore created(GroupName group) {
        assertThat(store.createGroup(group)).as("created " + group).isTrue();
        return groupStore(group);
    }

    private void publish(TaskStore through, NewTask... tasks) {
        assertThat(through.publish(List.of(tasks))).as("setup publish").allSatisfy(
                receipt -> assertThat(receipt.outcome()).isEqualTo(CREATED));
    }

    private static List<String> take(TaskStore from, int max) {
        return idsOf(from.consume(workerA(), max, NO_WAIT));
    }

    private static TaskSnapshot snapshotIn(TaskStore in, String id) {
        return in.get(id(id)).orElseThrow(() -> new AssertionError("expected task '" + id + "' in " + in.group()));
    }

    private static void configure(TaskStore in, UnaryOperator<QueueSettings.Builder> change) {
        in.configure(change.apply(in.settings().toBuilder()).build());
    }

    // ---------------------------------------------------------------- a queue without groups; administration

    @Test
    void a_queue_without_groups_lists_none_and_delivers_to_its_own_view() {
        Partition partition = regularPartition();
        given(tasksIn(partition, "a", "b"));

        assertThat(store.groups()).isEmpty();
        assertThat(store.group()).isEmpty();
        assertThat(consumeIds(workerA(), 10)).containsExactly("a", "b");
        assertThat(store.ack(workerA(), ids("a", "b"))).containsOnly(entry(id("a"), ACKED), entry(id("b"), ACKED));
        assertThat(store.stats().publishedTotal()).isEqualTo(2);
    }

    @Test
    void creating_a_group_is_true_the_first_time_and_false_when_it_exists() {
        assertThat(store.createGroup(BILLING)).isTrue();
        assertThat(store.createGroup(BILLING)).isFalse();
        assertThat(groupStore(NOTIFY).createGroup(BILLING)).as("through any store of the queue").isFalse();

        assertThat(store.groups()).containsExactly(BILLING);
        assertThat(groupStore(BILLING).group()).contains(BILLING);
    }

    @Test
    void groups_are_listed_by_name_through_every_store_of_the_queue() {
        store.createGroup(GroupName.of("notify"));
        groupStore(BILLING).createGroup(GroupName.of("audit"));
        store.createGroup(GroupName.of("billing-eu"));

        List<GroupName> byName = List.of(GroupName.of("audit"), GroupName.of("billing-eu"), GroupName.of("notify"));
        assertThat(store.groups()).containsExactlyElementsOf(byName);
        assertThat(groupStore(NOTIFY).groups()).containsExactlyElementsOf(byName);
    }

    @Test
    void a_queue_has_at_most_32_groups() {
        for (int i = 0; i < ConsumerGroups.MAX_GROUPS; i++) {
            assertThat(store.createGroup(GroupName.of("g" + (100 + i)))).isTrue();
        }

        assertInvalid("group", () -> store.createGroup(GroupName.of("one-more")));
        assertThat(store.groups()).hasSize(ConsumerGroups.MAX_GROUPS).doesNotContain(GroupName.of("one-more"));
        assertThat(store.createGroup(GroupName.of("g100"))).as("an existing one").isFalse();
        assertThat(store.deleteGroup(GroupName.of("g100"))).isTrue();
        assertThat(store.createGroup(GroupName.of("one-more"))).as("room again").isTrue();
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

    // ---------------------------------------------------------------- settings, pause

    @Test
    void a_group_starts_with_the_settings_the_queue_has_when_it_is_created() {
        configure(s -> s.maxAttempts(7).dedupWindow(Duration.ofMinutes(3)));

        TaskStore billing = created(BILLING);

        assertThat(billing.settings()).isEqualTo(store.settings());
        assertThat(billing.settings().maxAttempts()).isEqualTo(7);
    }

    @Test
    void configuring_the_queues_own_store_sets_every_group() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        configure(billing, s -> s.maxAttempts(2));

        configure(s -> s.maxAttempts(9));

        assertThat(billing.settings().maxAttempts()).isEqualTo(9);
        assertThat(notify.settings().maxAttempts()).isEqualTo(9);
        assertThat(store.settings().maxAttempts()).isEqualTo(9);
    }

    @Test
    void configuring_a_groups_store_sets_that_group_alone() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);

        configure(billing, s -> s.maxAttempts(1));

        assertThat(billing.settings().maxAttempts()).isEqualTo(1);
        assertThat(notify.settings().maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
        assertThat(store.settings().maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
        given(task("a"));
        take(billing, 1);
        take(notify, 1);
        Rejection retry = Rejection.retryNow("again");
        assertThat(billing.reject(workerA(), ids("a"), retry)).as("out of billing's one attempt")
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
        assertThat(notify.reject(workerA(), ids("a"), retry)).containsExactly(entry(id("a"), RETURNED));
    }

    @Test
    void each_group_keeps_its_dead_letters_within_its_own_caps() {
        configure(s -> s.deadLetterMaxAge(Duration.ofMinutes(5)));
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        assertThat(billing.settings().deadLetterMaxAge()).as("from the queue's settings").isEqualTo(Duration.ofMinutes(5));
        configure(billing, s -> s.deadLetterMaxCount(1));
        Partition partition = regularPartition();
        given(tasksIn(partition, "a", "b"));
        for (TaskStore group : List.of(billing, notify)) {
            assertThat(take(group, 2)).containsExactly("a", "b");
            assertThat(group.fail(workerA(), ids("a", "b"), "broken")).containsOnlyKeys(id("a"), id("b"));
        }

        assertThat(billing.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("b");
        assertThat(notify.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("a", "b");
        assertThat(billing.stats().deadLettersDroppedTotal()).isEqualTo(1);
        assertThat(notify.stats().deadLettersDroppedTotal()).isZero();
        assertThat(notify.get(id("a")).map(TaskSnapshot::state)).contains(DEAD);

        advance(Duration.ofMinutes(5));
        assertThat(billing.trimDeadLetters()).as("billing's own dead letters").isEqualTo(1);
        assertThat(notify.stats().dead()).as("notify's wait for its own trim").isEqualTo(2);
        assertThat(notify.trimDeadLetters()).isEqualTo(2);
        assertThat(store.trimDeadLetters()).as("the queue's own view has none").isZero();
        assertThat(notify.stats().deadLettersDroppedTotal()).isEqualTo(2);
    }

    @Test
    void pausing_one_group_does_not_pause_another() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        given(task("a"));

        billing.pause();

        assertThat(billing.stats().paused()).isTrue();
        assertThat(notify.stats().paused()).isFalse();
        assertThat(take(billing, 10)).isEmpty();
        assertThat(take(notify, 10)).containsExactly("a");
        billing.resume();
        assertThat(take(billing, 10)).containsExactly("a");
    }

    @Test
    void pausing_the_queues_own_store_pauses_its_own_view_alone() {
        TaskStore billing = created(BILLING);
        given(task("a"));

        store.pause();

        assertThat(store.stats().paused()).isTrue();
        assertThat(billing.stats().paused()).isFalse();
        assertThat(take(billing, 10)).containsExactly("a");
    }

    // ---------------------------------------------------------------- deleting, groups that do not exist

    @Test
    void deleting_a_group_frees_everything_it_held() {
        TaskStore billing = created(BILLING);
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "held", "next"));
        given(task("dead"));
        assertThat(idsOf(billing.consume(workerA(), 10, NO_WAIT))).containsExactlyInAnyOrder("held", "next", "dead");
        billing.fail(workerA(), ids("dead"), "broken");
        billing.pause();
        configure(billing, s -> s.maxAttempts(1));

        assertThat(store.deleteGroup(BILLING)).isTrue();
        assertThat(store.groups()).isEmpty();
        assertThat(store.createGroup(BILLING)).isTrue();

        QueueStats stats = billing.stats();
        assertThat(stats.publishedTotal()).isZero();
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.dead()).isZero();
        assertThat(stats.deadLetteredTotal()).isZero();
        assertThat(stats.lockedPartitions()).isZero();
        assertThat(stats.liveConsumers()).isZero();
        assertThat(stats.paused()).isFalse();
        assertThat(billing.settings()).isEqualTo(store.settings());
        assertThat(billing.get(id("held"))).isEmpty();
        assertThat(billing.ack(workerA(), ids("held", "next"))).as("the old consumer's acks")
                .containsExactly(entry(id("held"), LEASE_LOST), entry(id("next"), LEASE_LOST));
        assertThat(store.publish(tasksIn(ordered, "held"))).as("nothing holds the id any more")
                .containsExactly(receipt("held", CREATED));
        assertThat(idsOf(billing.consume(workerB(), 10, NO_WAIT))).as("no lock left").containsExactly("held");
    }

    @Test
    void deleting_a_group_that_does_not_exist_is_false() {
        created(NOTIFY);

        assertThat(store.deleteGroup(BILLING)).isFalse();
        assertThat(groupStore(BILLING).deleteGroup(NOTIFY)).as("through any store of the queue").isTrue();
        assertThat(store.deleteGroup(NOTIFY)).isFalse();
        assertThat(store.groups()).isEmpty();
    }

    @Test
    void calls_on_a_group_that_does_not_exist_are_refused_naming_group() {
        created(NOTIFY);
        given(task("a"));
        TaskStore missing = groupStore(BILLING);

        everyCallOnAGroupsState(missing).forEach((name, call) -> assertThatThrownBy(call).as(name)
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.field()).as(name + ": " + e.getMessage()).isEqualTo("group")));
        assertThat(store.groups()).as("nothing created by the calls").containsExactly(NOTIFY);
    }

    @Test
    void calls_on_a_deleted_group_are_refused_naming_group() {
        TaskStore billing = created(BILLING);
        given(task("a"));
        take(billing, 1);
        store.deleteGroup(BILLING);

        everyCallOnAGroupsState(billing).forEach((name, call) -> assertThatThrownBy(call).as(name)
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.field()).as(name + ": " + e.getMessage()).isEqualTo("group")));
    }

    /** Every call that needs a group's state: all but publishing, the schedules and the groups' administration. */
    private static Map<String, ThrowingCallable> everyCallOnAGroupsState(TaskStore group) {
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        Partition partition = regularPartition();
        calls.put("consume", () -> group.consume(workerA(), 1, NO_WAIT));
        calls.put("ack", () -> group.ack(workerA(), ids("a")));
        calls.put("ackAndConsume", () -> group.ackAndConsume(workerA(), ids("a"), 1, NO_WAIT));
        calls.put("reject", () -> group.reject(workerA(), ids("a"), Rejection.retryNow("r")));
        calls.put("fail", () -> group.fail(workerA(), ids("a"), "r"));
        calls.put("release", () -> group.release(workerA(), ids("a")));
        calls.put("blockPartition", () -> group.blockPartition(partition, Duration.ofSeconds(1)));
        calls.put("unblockPartition", () -> group.unblockPartition(partition));
        calls.put("heartbeat", () -> group.heartbeat(workerA(), Duration.ofSeconds(1)));
        calls.put("reclaim", group::reclaim);
        calls.put("trimDeadLetters", group::trimDeadLetters);
        calls.put("cancel", () -> group.cancel(ids("a")));
        calls.put("get", () -> group.get(id("a")));
        calls.put("deadLetters", () -> group.deadLetters(0, 10));
        calls.put("redrive", () -> group.redrive(ids("a")));
        calls.put("redriveAll", group::redriveAll);
        calls.put("purgeDeadLetters", () -> group.purgeDeadLetters(ids("a")));
        calls.put("purgeAllDeadLetters", group::purgeAllDeadLetters);
        calls.put("stats", group::stats);
        calls.put("inspect", () -> group.inspect(10));
        calls.put("pause", group::pause);
        calls.put("resume", group::resume);
        calls.put("settings", group::settings);
        calls.put("configure", () -> group.configure(QueueSettings.DEFAULTS));
        return calls;
    }

    // ---------------------------------------------------------------- schedules

    @Test
    void a_schedule_read_or_changed_through_a_group_store_is_the_queues() {
        TaskStore billing = created(BILLING);
        TaskStore notify = created(NOTIFY);
        TaskStore missing = groupStore(GroupName.of("missing"));
        Partition partition = regularPartition();
        long start = now();
        Schedule hourly = Schedule.builder("hourly", partition, new byte[] {1}).every(Duration.ofHours(1)).build();

        assertThat(billing.putSchedule(hourly)).isTrue();

        assertThat(store.schedules()).containsExactly(new ScheduleEntry(hourly, start, start - 1));
        assertThat(notify.schedules()).isEqualTo(store.schedules());
        assertThat(missing.schedules()).isEqualTo(store.schedules());
        assertThat(notify.putSchedule(hourly)).as("the same schedule").isFalse();

        assertThat(missing.fireDueSchedules()).isEqualTo(new ScheduleFiring(1, 1, 0));
        String slot = "hourly@" + Instant.ofEpochMilli(start);
        assertThat(take(billing, 10)).containsExactly(slot);
        assertThat(take(notify, 10)).containsExactly(slot);
        assertThat(billing.fireDueSchedules()).isEqualTo(ScheduleFiring.NONE);

        assertThat(notify.removeSchedule("hourly")).isTrue();
        assertThat(store.schedules()).isEmpty();
        assertThat(billing.schedules()).isEmpty();
    }

    // ---------------------------------------------------------------- the group a store serves

    @Test
    void a_store_says_which_group_it_serves() {
        assertThat(store.group()).isEqualTo(Optional.empty());
        assertThat(groupStore(BILLING).group()).contains(BILLING);
        assertThat(groupStore(BILLING).queue()).isEqualTo(queue);
        assertThat(store.groups()).as("a store asked for does not create its group").isEmpty();
    }
}
