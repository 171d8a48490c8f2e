package io.ordo.tck.contract;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.Task;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.tck.fixtures.TaskFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_LISTING_ORDER;
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

/**
 * The task lists (docs/contract.md, "Task lists"; {@link TaskListing}): a partition's tasks in the order it
 * delivers them with its head, lock, block and counts; the tasks not ready yet by ready time; the tasks in
 * flight with their leases, by cursor; the dead letters a filter matches, a bounded number examined per call.
 * Every test keeps what it orders in one partition or says which characteristic it needs, so a sharded queue
 * runs them all.
 */
public abstract class TaskListingContract extends ContractContext {
    private final GroupStoreUnderTest groupStoreUnderTest;

    protected TaskListingContract(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest);
        this.groupStoreUnderTest = groupStoreUnderTest;
    }

    private static List<String> idsIn(List<Task> tasks) {
        return tasks.stream().map(task -> task.id().value()).collect(Collectors.toList());
    }

    private PartitionTasks partition(Partition partition) {
        return store.partitionTasks(partition, 0, TaskListing.MAX_PAGE);
    }

    // ---------------------------------------------------------------- a partition

    @Test
    void a_regular_partition_lists_its_ready_tasks_in_the_order_a_consume_takes_them() {
        Partition partition = regularPartition();
        given(task("a", partition), task("b", partition).priority(5), task("c", partition),
                task("later", partition).delayedBy(Duration.ofHours(1)));
        given(task("urgent", partition).priority(9));

        PartitionTasks listed = partition(partition);

        assertThat(idsIn(listed.tasks())).containsExactly("urgent", "b", "a", "c");
        assertThat(listed.total()).isEqualTo(4);
        assertThat(listed.waiting()).as("waiting counts the task not ready yet too").isEqualTo(5);
        assertThat(listed.head()).map(task -> task.id().value()).contains("urgent");
        assertThat(listed.tasks().get(1)).isEqualTo(snapshot("b").task());
        assertThat(listed.readAt()).isEqualTo(Instant.ofEpochMilli(now()));
        assertThat(listed.offset()).isZero();
        assertThat(listed.partition()).isEqualTo(partition);
        assertThat(consumeIds(workerA(), 4)).as("the order consumes take them").containsExactly("urgent", "b", "a", "c");
        assertThat(partition(partition).tasks()).isEmpty();
    }

    @Test
    void an_ordered_partition_lists_every_waiting_task_and_its_lock_with_a_head_waiting_for_its_retry_first() {
        Partition partition = orderedPartition();
        given(tasksIn(partition, "o1", "o2", "o3", "o4"));
        consume(workerA(), 2);
        long lockedAt = now();
        advance(Duration.ofSeconds(3));

        PartitionTasks held = partition(partition);
        assertThat(idsIn(held.tasks())).containsExactly("o3", "o4");
        assertThat(held.lock()).hasValueSatisfying(lock -> {
            assertThat(lock.holder()).isEqualTo(workerA());
            assertThat(lock.since()).isEqualTo(Instant.ofEpochMilli(lockedAt));
            assertThat(lock.inFlight()).isEqualTo(2);
        });
        assertThat(held.inFlight()).isEqualTo(OptionalLong.of(2));
        assertThat(held.waiting()).isEqualTo(2);

        store.reject(workerA(), ids("o1"), Rejection.retryAfter(Duration.ofMinutes(1), "try later"));

        PartitionTasks blocked = partition(partition);
        assertThat(idsIn(blocked.tasks())).as("o2 came back with its batch").containsExactly("o1", "o2", "o3", "o4");
        assertThat(blocked.head()).hasValueSatisfying(head -> {
            assertThat(head.id()).isEqualTo(id("o1"));
            assertThat(head.readyAt()).isEqualTo(now() + 60_000);
        });
        assertThat(blocked.lock()).isEmpty();
        assertThat(blocked.inFlight()).isEqualTo(OptionalLong.of(0));
        assertThat(blocked.total()).isEqualTo(4);
        assertThat(idsIn(store.delayedTasks(0, 10).tasks())).as("its head is not ready either").containsExactly("o1");
    }

    @Test
    void a_partition_is_paged_by_offset_and_limit() {
        Partition partition = regularPartition();
        given(TaskFixture.numberedTasksIn(partition, "t", 7));

        assertThat(idsIn(store.partitionTasks(partition, 0, 3).tasks())).containsExactly("t1", "t2", "t3");
        assertThat(idsIn(store.partitionTasks(partition, 3, 3).tasks())).containsExactly("t4", "t5", "t6");
        PartitionTasks last = store.partitionTasks(partition, 6, 3);
        assertThat(idsIn(last.tasks())).containsExactly("t7");
        assertThat(last.offset()).isEqualTo(6);
        assertThat(last.head()).map(task -> task.id().value()).as("the head whatever the page").contains("t1");
        PartitionTasks beyond = store.partitionTasks(partition, 7, 3);
        assertThat(beyond.tasks()).isEmpty();
        assertThat(beyond.total()).isEqualTo(7);
    }

    @Test
    void cancelled_tasks_leave_the_list_and_an_id_published_again_takes_its_new_place() {
        Partition partition = regularPartition();
        given(TaskFixture.numberedTasksIn(partition, "t", 5));
        assertThat(store.cancel(ids("t3", "t1"))).containsValues(CancelOutcome.CANCELLED);

        assertThat(idsIn(partition(partition).tasks())).containsExactly("t2", "t4", "t5");
        assertThat(idsIn(store.partitionTasks(partition, 1, 2).tasks())).containsExactly("t4", "t5");

        given(task("t3", partition));
        PartitionTasks listed = partition(partition);
        assertThat(idsIn(listed.tasks())).containsExactly("t2", "t4", "t5", "t3");
        assertThat(listed.total()).isEqualTo(4);
        assertThat(listed.waiting()).isEqualTo(4);
    }

    @Test
    void a_partition_shows_its_block_and_a_partition_without_tasks_shows_nothing_waiting() {
        Partition partition = regularPartition();
        store.blockPartition(partition, Duration.ofMinutes(10));

        PartitionTasks empty = partition(partition);
        assertThat(empty.block()).hasValueSatisfying(block ->
                assertThat(block.until()).isEqualTo(Instant.ofEpochMilli(now() + 600_000)));
        assertThat(empty.tasks()).isEmpty();
        assertThat(empty.head()).isEmpty();
        assertThat(empty.total()).isZero();
        assertThat(empty.waiting()).isZero();
        assertThat(empty.lock()).isEmpty();

        advance(Duration.ofMinutes(10));
        assertThat(partition(partition).block()).as("a block that ended").isEmpty();
    }

    @Test
    void a_regular_partition_counts_its_tasks_in_flight_while_the_queue_has_a_cap() {
        Partition partition = regularPartition();
        given(TaskFixture.numberedTasksIn(partition, "r", 3));
        consume(workerA(), 1);
        assertThat(partition(partition).inFlight()).as("no count kept without a cap").isEmpty();

        configure(s -> s.partitionConcurrency(5));
        consume(workerA(), 1);
        assertThat(partition(partition).inFlight()).isEqualTo(OptionalLong.of(2));
    }

    // ---------------------------------------------------------------- delayed

    @Test
    void tasks_not_ready_yet_are_listed_by_ready_time_then_id_and_leave_the_list_when_ready() {
        given(task("x", regularPartition()).delayedBy(Duration.ofMinutes(3)),
                task("y", regularPartition()).delayedBy(Duration.ofMinutes(1)),
                task("z", orderedPartition()).delayedBy(Duration.ofMinutes(2)),
                task("w", regularPartition()).delayedBy(Duration.ofMinutes(1)),
                task("now", regularPartition()));

        TaskPage delayed = store.delayedTasks(0, 10);
        assertThat(idsIn(delayed.tasks())).containsExactly("w", "y", "z", "x");
        assertThat(delayed.total()).isEqualTo(4);
        assertThat(delayed.readAt()).isEqualTo(Instant.ofEpochMilli(now()));
        assertThat(delayed.tasks().get(0)).isEqualTo(snapshot("w").task());
        TaskPage second = store.delayedTasks(1, 2);
        assertThat(idsIn(second.tasks())).containsExactly("y", "z");
        assertThat(second.offset()).isEqualTo(1);

        advance(Duration.ofSeconds(90));
        assertThat(consumeIds(workerA(), 10)).containsExactlyInAnyOrder("now", "w", "y");
        TaskPage later = store.delayedTasks(0, 10);
        assertThat(idsIn(later.tasks())).containsExactly("z", "x");
        assertThat(later.total()).isEqualTo(2);
    }

    @Test
    void a_regular_task_whose_time_came_is_listed_in_its_partition_after_the_next_consume() {
        Partition partition = regularPartition();
        given(task("first", partition), task("soon", partition).delayedBy(Duration.ofMinutes(1)));
        assertThat(idsIn(partition(partition).tasks())).as("not ready: listed among the delayed").containsExactly("first");

        advance(Duration.ofMinutes(1));
        // takes "first", due earlier; a consume moves what fell due into its partition on every store
        assertThat(consumeIds(workerA(), 1)).containsExactly("first");

        assertThat(idsIn(partition(partition).tasks())).containsExactly("soon");
        assertThat(store.delayedTasks(0, 10).tasks()).isEmpty();
    }

    // ---------------------------------------------------------------- in flight

    @Test
    void tasks_in_flight_are_listed_with_their_holder_lease_progress_and_cancellation() {
        configure(s -> s.processingTimeout(Duration.ofMinutes(10)));
        given(task("a1"), task("a2"), task("b1"), task("c1"));
        Map<String, Lease> leases = new HashMap<>();
        store.heartbeat(workerA(), DEFAULT_TTL);
        consume(workerA(), 2).forEach(lease -> leases.put(lease.id().value(), lease));
        advance(Duration.ofSeconds(5));
        consume(workerB(), 1).forEach(lease -> leases.put(lease.id().value(), lease));
        consume(workerC(), 1).forEach(lease -> leases.put(lease.id().value(), lease));
        String cancelled = consumedBy(leases, workerB().value());
        String reporting = consumedBy(leases, workerA().value());
        store.heartbeat(workerA(), DEFAULT_TTL, Map.of(id(reporting), new Progress(40, "page 4 of 10")));
        long reportedAt = now();
        assertThat(store.cancel(ids(cancelled))).containsValue(CancelOutcome.CANCEL_REQUESTED);

        List<TaskSnapshot> listed = allInFlight(3);

        assertThat(listed).extracting(snapshot -> snapshot.task().id().value())
                .containsExactlyInAnyOrderElementsOf(leases.keySet());
        for (TaskSnapshot snapshot : listed) {
            Lease lease = leases.get(snapshot.task().id().value());
            assertThat(snapshot).as(lease.id().value()).isEqualTo(store.get(lease.id()).orElseThrow());
            assertThat(snapshot.holder()).contains(lease.consumer());
            assertThat(snapshot.lease()).hasValueSatisfying(status -> {
                assertThat(status.leasedAt()).isEqualTo(Instant.ofEpochMilli(lease.leasedAt()));
                assertThat(status.deadline()).contains(Instant.ofEpochMilli(lease.leasedAt() + 600_000));
                assertThat(status.cancelRequested()).isEqualTo(lease.id().value().equals(cancelled));
            });
            assertThat(snapshot.task().attempts()).isEqualTo(1);
        }
        TaskSnapshot withProgress = listed.stream().filter(s -> s.task().id().value().equals(reporting)).findFirst().orElseThrow();
        assertThat(withProgress.lease().orElseThrow().progress()).contains(new Progress(40, "page 4 of 10"));
        assertThat(withProgress.lease().orElseThrow().progressAt()).contains(Instant.ofEpochMilli(reportedAt));
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LISTING_ORDER)
    void tasks_in_flight_are_listed_by_holder_name() {
        given(task("u1"), task("u2"), task("u3"), task("u4"));
        consume(workerC(), 1);
        consume(workerA(), 2);
        consume(workerB(), 1);

        assertThat(allInFlight(1)).extracting(snapshot -> snapshot.holder().orElseThrow())
                .containsExactly(workerA(), workerA(), workerB(), workerC());
    }

    @Test
    void the_in_flight_list_pages_through_many_tasks_once_each() {
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            tasks.add(task("m" + i).build());
        }
        given(tasks);
        List<String> held = new ArrayList<>(idsOf(consume(workerA(), 150)));
        held.addAll(idsOf(consume(workerB(), 100)));

        List<TaskSnapshot> listed = allInFlight(TaskListing.MAX_PAGE);

        assertThat(listed).extracting(snapshot -> snapshot.task().id().value()).containsExactlyInAnyOrderElementsOf(held);
        InFlightPage first = store.inFlightTasks(ListingCursor.START, 7);
        assertThat(first.tasks()).hasSize(7);
        assertThat(first.next()).isPresent();
        assertThat(first.readAt()).isEqualTo(Instant.ofEpochMilli(now()));
    }

    @Test
    void nothing_in_flight_is_an_empty_last_page() {
        InFlightPage none = store.inFlightTasks(ListingCursor.START, 10);
        assertThat(none.tasks()).isEmpty();
        assertThat(none.next()).isEmpty();
    }

    /** Every task in flight, following the cursors with pages of {@code pageSize}. */
    private List<TaskSnapshot> allInFlight(int pageSize) {
        List<TaskSnapshot> all = new ArrayList<>();
        String cursor = ListingCursor.START;
        for (int pages = 0; pages < 1_000; pages++) {
            InFlightPage page = store.inFlightTasks(cursor, pageSize);
            assertThat(page.tasks().size()).isLessThanOrEqualTo(pageSize);
            all.addAll(page.tasks());
            if (page.next().isEmpty()) {
                return all;
            }
            cursor = page.next().get();
        }
        throw new AssertionError("the in-flight list did not end");
    }

    private static String consumedBy(Map<String, Lease> leases, String consumer) {
        return leases.values().stream().filter(lease -> lease.consumer().value().equals(consumer))
                .map(lease -> lease.id().value()).sorted().findFirst().orElseThrow();
    }

    // ---------------------------------------------------------------- dead letters

    private void bury(String id, Partition partition, String reason) {
        given(task(id, partition));
        List<Lease> taken = consume(workerA(), 1);
        assertThat(idsOf(taken)).containsExactly(id);
        assertThat(store.fail(workerA(), ids(id), reason)).containsValue(FailOutcome.DEAD_LETTERED);
    }

    @Test
    void dead_letters_are_found_by_reason_text_partition_and_time_of_death() {
        Partition bank = regularPartition();
        Partition mail = regularPartition();
        bury("d1", bank, "Timeout talking to the bank");
        advance(Duration.ofMinutes(1));
        long second = now();
        bury("d2", mail, "card declined");
        advance(Duration.ofMinutes(1));
        bury("d3", mail, "TIMEOUT again");
        long third = now();

        assertThat(found(DeadLetterFilter.ANY.reasonContains("timeout"))).containsExactly("d1", "d3");
        assertThat(found(DeadLetterFilter.ANY.reasonContains("DECLINED"))).containsExactly("d2");
        assertThat(found(DeadLetterFilter.ANY.partition(mail))).containsExactly("d2", "d3");
        assertThat(found(DeadLetterFilter.ANY.diedFrom(Instant.ofEpochMilli(second)))).containsExactly("d2", "d3");
        assertThat(found(DeadLetterFilter.ANY.diedBefore(Instant.ofEpochMilli(third)))).containsExactly("d1", "d2");
        assertThat(found(DeadLetterFilter.ANY.partition(mail).reasonContains("time"))).containsExactly("d3");
        assertThat(found(DeadLetterFilter.ANY.reasonContains("nothing like it"))).isEmpty();

        List<DeadLetter> all = new ArrayList<>();
        assertThat(search(DeadLetterFilter.ANY, all)).as("examined in all").isEqualTo(3);
        DeadLetter d2 = all.stream().filter(letter -> letter.id().equals(id("d2"))).findFirst().orElseThrow();
        assertThat(d2.reason()).isEqualTo("card declined");
        assertThat(d2.deadAt()).isEqualTo(second);
        assertThat(d2.task()).isEqualTo(snapshot("d2").task());
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LISTING_ORDER)
    void a_dead_letter_search_pages_oldest_first_with_its_cursor() {
        for (String id : List.of("p1", "p2", "p3", "p4", "p5")) {
            bury(id, regularPartition(), "reason of " + id);
            advanceMillis(1);
        }

        DeadLetterMatches first = store.findDeadLetters(DeadLetterFilter.ANY.reasonContains("reason"), ListingCursor.START, 2);
        assertThat(first.matches()).extracting(letter -> letter.id().value()).containsExactly("p1", "p2");
        assertThat(first.examined()).isEqualTo(2);
        DeadLetterMatches second = store.findDeadLetters(DeadLetterFilter.ANY, first.next().orElseThrow(), 2);
        assertThat(second.matches()).extracting(letter -> letter.id().value()).containsExactly("p3", "p4");
        DeadLetterMatches last = store.findDeadLetters(DeadLetterFilter.ANY, second.next().orElseThrow(), 2);
        assertThat(last.matches()).extracting(letter -> letter.id().value()).containsExactly("p5");
        assertThat(last.next()).isEmpty();
    }

    @Test
    void a_dead_letter_search_examines_a_bounded_number_per_call() {
        Partition partition = regularPartition();
        int count = TaskListing.MAX_EXAMINED + 5;
        given(TaskFixture.numberedTasksIn(partition, "bulk", count - 1));
        List<Lease> taken = new ArrayList<>();
        while (taken.size() < count - 1) {
            taken.addAll(consume(workerA(), TaskStore.MAX_CONSUME));
        }
        store.fail(workerA(), taken.stream().map(Lease::id).toList(), "routine failure");
        advanceMillis(1);
        bury("needle", partition, "the one that matters");

        DeadLetterMatches first = store.findDeadLetters(DeadLetterFilter.ANY, ListingCursor.START, 10);
        assertThat(first.next()).as("more after the first call").isPresent();
        List<DeadLetter> needles = new ArrayList<>();
        int examined = search(DeadLetterFilter.ANY.reasonContains("matters"), needles);
        List<String> found = needles.stream().map(letter -> letter.id().value()).toList();

        assertThat(found).containsExactly("needle");
        assertThat(examined).isEqualTo(count);
    }

    /** The ids of the dead letters the filter matches, sorted, following the cursors to the end. */
    private List<String> found(DeadLetterFilter filter) {
        List<DeadLetter> matches = new ArrayList<>();
        search(filter, matches);
        return matches.stream().map(letter -> letter.id().value()).sorted().collect(Collectors.toList());
    }

    /** Follows the search's cursors to the end, adding the matches to {@code found}; how many were examined in all. */
    private int search(DeadLetterFilter filter, List<DeadLetter> found) {
        int examined = 0;
        Optional<String> cursor = Optional.of(ListingCursor.START);
        for (int calls = 0; cursor.isPresent(); calls++) {
            assertThat(calls).as("calls of one search").isLessThan(100);
            DeadLetterMatches matches = store.findDeadLetters(filter, cursor.get(), 10);
            assertThat(matches.examined()).isLessThanOrEqualTo(TaskListing.MAX_EXAMINED);
            found.addAll(matches.matches());
            examined += matches.examined();
            cursor = matches.next();
        }
        return examined;
    }

    // ---------------------------------------------------------------- groups, bad input

    @Test
    void a_group_lists_its_own_tasks() {
        GroupName group = GroupName.of("listing");
        assertThat(store.createGroup(group)).isTrue();
        TaskStore groupStore = groupStoreUnderTest.create(queue, group, clock);
        Partition partition = regularPartition();
        given(tasksIn(partition, "g1", "g2", "g3"));
        given(task("g4", partition).delayedBy(Duration.ofMinutes(1)));
        List<Lease> taken = groupStore.consume(workerA(), 1, NO_WAIT);
        assertThat(groupStore.fail(workerA(), taken.stream().map(Lease::id).toList(), "no such account"))
                .containsValue(FailOutcome.DEAD_LETTERED);
        groupStore.consume(workerB(), 1, NO_WAIT);

        assertThat(idsIn(groupStore.partitionTasks(partition, 0, 10).tasks())).containsExactly("g3");
        assertThat(idsIn(groupStore.delayedTasks(0, 10).tasks())).containsExactly("g4");
        assertThat(groupStore.inFlightTasks(ListingCursor.START, 10).tasks())
                .extracting(snapshot -> snapshot.task().id().value()).containsExactly("g2");
        assertThat(groupStore.findDeadLetters(DeadLetterFilter.ANY.reasonContains("account"), ListingCursor.START, 10)
                .matches()).extracting(letter -> letter.id().value()).containsExactly("g1");
        assertThat(store.partitionTasks(partition, 0, 10).tasks()).as("the queue's own view receives nothing").isEmpty();
        assertThat(store.delayedTasks(0, 10).tasks()).isEmpty();
    }

    @Test
    void bad_arguments_are_refused_naming_the_field() {
        Partition partition = regularPartition();
        assertInvalid("partition", () -> store.partitionTasks(null, 0, 10));
        assertInvalid("offset", () -> store.partitionTasks(partition, -1, 10));
        assertInvalid("offset", () -> store.partitionTasks(partition, TaskListing.MAX_OFFSET + 1, 10));
        assertInvalid("limit", () -> store.partitionTasks(partition, 0, 0));
        assertInvalid("limit", () -> store.partitionTasks(partition, 0, TaskListing.MAX_PAGE + 1));
        assertInvalid("offset", () -> store.delayedTasks(-1, 10));
        assertInvalid("limit", () -> store.delayedTasks(0, TaskListing.MAX_PAGE + 1));
        assertInvalid("cursor", () -> store.inFlightTasks(null, 10));
        assertInvalid("cursor", () -> store.inFlightTasks("not a cursor!", 10));
        assertInvalid("cursor", () -> store.inFlightTasks(ListingCursor.of("a", "b", "c", "d", "e"), 10));
        assertInvalid("limit", () -> store.inFlightTasks(ListingCursor.START, 0));
        assertInvalid("filter", () -> store.findDeadLetters(null, ListingCursor.START, 10));
        assertInvalid("cursor", () -> store.findDeadLetters(DeadLetterFilter.ANY, "%%%", 10));
        assertInvalid("cursor", () -> store.findDeadLetters(DeadLetterFilter.ANY, ListingCursor.of("x", "y", "z", "w"), 10));
        assertInvalid("limit", () -> store.findDeadLetters(DeadLetterFilter.ANY, ListingCursor.START, TaskListing.MAX_PAGE + 1));
        assertInvalid("reasonContains", () -> DeadLetterFilter.ANY.reasonContains(""));
        assertInvalid("reasonContains", () -> DeadLetterFilter.ANY.reasonContains("x".repeat(DeadLetterFilter.MAX_REASON_TEXT + 1)));
        assertInvalid("diedBefore", () -> DeadLetterFilter.ANY.diedFrom(Instant.ofEpochMilli(10)).diedBefore(Instant.ofEpochMilli(10)));
    }
}
