package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Schedule;
import io.ordo.ports.ConsumerGroups;
import io.ordo.ports.QueueStats;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ScheduleEntry;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.AckOutcome.LEASE_LOST;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.RejectOutcome.RETURNED;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * Consumer groups (docs/groups.md), their administration: creating and listing them through any store of the
 * queue, a group's settings and pause, deleting a group and the calls on one that does not exist, the queue's
 * schedules through a group's store, and the group a store serves. What reaches a group and what each keeps:
 * {@link ConsumerGroupsContract}.
 */
public abstract class ConsumerGroupsAdminContract extends ConsumerGroupsContext {
    protected ConsumerGroupsAdminContract(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest, groupStoreUnderTest);
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
