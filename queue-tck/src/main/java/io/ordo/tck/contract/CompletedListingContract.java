package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletedTask;
import io.ordo.ports.Completion;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The list of completed tasks (docs/contract.md, "Task lists"; {@link TaskListing#completedTasks}): the tasks a
 * queue that keeps results holds as completed, the latest to go first, each with when it completed, until when
 * it is kept and the size of its result, offset-paged as the delayed tasks are. The order is one for the whole
 * queue on every store: a sharded queue merges its shards' pages.
 */
public abstract class CompletedListingContract extends ContractContext {
    private static final Duration RETENTION = Duration.ofMinutes(10);

    private final GroupStoreUnderTest groupStoreUnderTest;

    protected CompletedListingContract(StoreUnderTest storeUnderTest, GroupStoreUnderTest groupStoreUnderTest) {
        super(storeUnderTest);
        this.groupStoreUnderTest = groupStoreUnderTest;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> idsIn(CompletedPage page) {
        return page.tasks().stream().map(completed -> completed.task().id().value()).toList();
    }

    /** Publishes the tasks, takes them all and completes them in one call, with these results (id, result). */
    private void completeNow(Map<String, String> results) {
        List<NewTask> tasks = new ArrayList<>();
        results.keySet().forEach(id -> tasks.add(task(id).build()));
        given(tasks);
        assertThat(consume(workerA(), tasks.size())).hasSize(tasks.size());
        Map<io.ordo.domain.TaskId, byte[]> byId = new LinkedHashMap<>();
        results.forEach((id, result) -> byId.put(id(id), bytes(result)));
        store.complete(workerA(), byId);
    }

    @Test
    void a_queue_that_keeps_no_results_lists_none_and_says_so() {
        given(task("acked"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("acked"));

        CompletedPage page = store.completedTasks(0, 10);
        assertThat(page.tasks()).isEmpty();
        assertThat(page.total()).isZero();
        assertThat(page.resultsKept()).isFalse();
        assertThat(page.resultRetention()).isZero();
        assertThat(page.readAt()).isEqualTo(Instant.ofEpochMilli(now()));
    }

    @Test
    void completed_tasks_are_listed_latest_to_go_first_with_their_times_and_result_sizes() {
        configure(settings -> settings.resultRetention(RETENTION));
        given(task("first"));
        consume(workerA(), 1);
        long firstAt = now();
        store.complete(workerA(), Map.of(id("first"), bytes("{\"total\":42}")));
        advance(Duration.ofSeconds(5));
        given(task("second"));
        consume(workerA(), 1);
        long secondAt = now();
        store.ack(workerA(), ids("second"));

        CompletedPage page = store.completedTasks(0, 10);

        assertThat(idsIn(page)).containsExactly("second", "first");
        assertThat(page.total()).isEqualTo(2);
        assertThat(page.offset()).isZero();
        assertThat(page.resultRetention()).isEqualTo(RETENTION);
        assertThat(page.resultsKept()).isTrue();
        assertThat(page.readAt()).isEqualTo(Instant.ofEpochMilli(now()));
        CompletedTask first = page.tasks().get(1);
        Completion completion = snapshot("first").completion().orElseThrow();
        assertThat(first.task()).isEqualTo(snapshot("first").task());
        assertThat(first.completedAt()).isEqualTo(Instant.ofEpochMilli(firstAt)).isEqualTo(completion.completedAt());
        assertThat(first.keptUntil()).isEqualTo(Instant.ofEpochMilli(firstAt + RETENTION.toMillis()))
                .isEqualTo(completion.keptUntil());
        assertThat(first.resultBytes()).isEqualTo(completion.result().length).isEqualTo(12);
        CompletedTask second = page.tasks().get(0);
        assertThat(second.completedAt()).isEqualTo(Instant.ofEpochMilli(secondAt));
        assertThat(second.resultBytes()).as("a plain ack keeps no result").isZero();
        assertThat(second.task().partition()).isEqualTo(snapshot("second").task().partition());
        assertThat(page.total()).isEqualTo(store.stats().completed());
    }

    @Test
    void tasks_completed_at_once_are_listed_by_id_descending_as_its_utf8_bytes_sort() {
        configure(settings -> settings.resultRetention(RETENTION));
        Map<String, String> results = new LinkedHashMap<>();
        // U+FF21 sorts after the emoji in UTF-16 but before it in UTF-8
        for (String id : List.of("b", "\uFF21", "a", "\uD83D\uDE00", "c")) {
            results.put(id, "r");
        }
        completeNow(results);

        assertThat(idsIn(store.completedTasks(0, 10))).containsExactly("\uD83D\uDE00", "\uFF21", "c", "b", "a");
    }

    @Test
    void the_list_follows_when_tasks_go_not_when_they_completed_once_the_retention_changes() {
        configure(settings -> settings.resultRetention(RETENTION));
        given(task("kept-long"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("kept-long"));
        advance(Duration.ofMinutes(1));
        configure(settings -> settings.resultRetention(Duration.ofMinutes(2)));
        given(task("kept-short"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("kept-short"));

        CompletedPage page = store.completedTasks(0, 10);
        assertThat(idsIn(page)).as("kept-long goes in 9 minutes, kept-short in 2").containsExactly("kept-long", "kept-short");
        assertThat(page.resultRetention()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void the_list_is_paged_by_offset_and_limit() {
        configure(settings -> settings.resultRetention(RETENTION));
        Partition partition = regularPartition();
        for (int i = 1; i <= 7; i++) {
            given(task("t" + i, partition));
            consume(workerA(), 1);
            store.complete(workerA(), Map.of(id("t" + i), bytes("x".repeat(i))));
            advanceMillis(10);
        }

        assertThat(idsIn(store.completedTasks(0, 3))).containsExactly("t7", "t6", "t5");
        CompletedPage middle = store.completedTasks(3, 3);
        assertThat(idsIn(middle)).containsExactly("t4", "t3", "t2");
        assertThat(middle.offset()).isEqualTo(3);
        assertThat(middle.tasks()).extracting(CompletedTask::resultBytes).containsExactly(4, 3, 2);
        CompletedPage last = store.completedTasks(6, 3);
        assertThat(idsIn(last)).containsExactly("t1");
        CompletedPage beyond = store.completedTasks(TaskListing.MAX_OFFSET, TaskListing.MAX_PAGE);
        assertThat(beyond.tasks()).isEmpty();
        assertThat(beyond.total()).isEqualTo(7);
    }

    @Test
    void expired_and_cancelled_tasks_leave_the_list_while_those_past_their_time_stay_until_the_maintenance() {
        configure(settings -> settings.resultRetention(RETENTION));
        completeNow(Map.of("early", "1"));
        advance(Duration.ofMinutes(5));
        completeNow(Map.of("late", "2", "cancelled", "3"));
        store.cancel(ids("cancelled"));
        assertThat(idsIn(store.completedTasks(0, 10))).containsExactly("late", "early");

        advance(Duration.ofMinutes(5));
        assertThat(idsIn(store.completedTasks(0, 10))).as("past its time, not deleted yet").containsExactly("late", "early");
        assertThat(store.expireCompleted()).isEqualTo(1);

        CompletedPage page = store.completedTasks(0, 10);
        assertThat(idsIn(page)).containsExactly("late");
        assertThat(page.total()).isEqualTo(1);
    }

    @Test
    void a_group_lists_its_own_completed_tasks() {
        GroupName group = GroupName.of("results");
        assertThat(store.createGroup(group)).isTrue();
        TaskStore groupStore = groupStoreUnderTest.create(queue, group, clock);
        groupStore.configure(groupStore.settings().toBuilder().resultRetention(RETENTION).build());
        given(task("g1"), task("g2"));
        List<Lease> taken = groupStore.consume(workerA(), 2, NO_WAIT);
        assertThat(taken).hasSize(2);
        groupStore.complete(workerA(), Map.of(id("g1"), bytes("one"), id("g2"), bytes("two!")));

        CompletedPage page = groupStore.completedTasks(0, 10);
        assertThat(idsIn(page)).containsExactly("g2", "g1");
        assertThat(page.tasks()).extracting(CompletedTask::resultBytes).containsExactly(4, 3);
        assertThat(page.resultRetention()).isEqualTo(RETENTION);
        assertThat(store.completedTasks(0, 10).tasks()).as("the queue's own view completed nothing").isEmpty();
    }

    @Test
    void bad_arguments_are_refused_naming_the_field() {
        assertInvalid("offset", () -> store.completedTasks(-1, 10));
        assertInvalid("offset", () -> store.completedTasks(TaskListing.MAX_OFFSET + 1, 10));
        assertInvalid("limit", () -> store.completedTasks(0, 0));
        assertInvalid("limit", () -> store.completedTasks(0, TaskListing.MAX_PAGE + 1));
    }
}
