package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.Reasons;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEventType;
import io.ordo.ports.TaskEvents;
import io.ordo.tck.fixtures.PartitionFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.ordo.ports.TaskEventType.CANCELLED;
import static io.ordo.ports.TaskEventType.COMPLETED;
import static io.ordo.ports.TaskEventType.DEAD_LETTERED;
import static io.ordo.ports.TaskEventType.FAILED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The queue's event log (docs/task-control.md, "Event log"): what became of its tasks, capped, read from a cursor. */
public abstract class TaskEventsContract extends ContractContext {
    protected TaskEventsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private void keepEvents(int length) {
        configure(settings -> settings.eventLogLength(length));
    }

    private List<TaskEvent> allEvents() {
        return store.events(ListingCursor.START, TaskEvents.MAX_EVENTS).events();
    }

    @Test
    void without_a_log_nothing_is_kept() {
        given(task("acked"), task("rejected"));
        consume(workerA(), 2);
        store.ack(workerA(), ids("acked"));
        store.reject(workerA(), ids("rejected"), Rejection.retryNow("boom"));

        TaskEventPage page = store.events(ListingCursor.START, 10);

        assertThat(page.events()).isEmpty();
        assertThat(page.next()).isEqualTo(ListingCursor.START);
        assertThat(page.missed()).isFalse();
    }

    @Test
    void an_ack_is_a_completed_event_with_the_task_its_partition_and_the_time() {
        keepEvents(100);
        Partition partition = PartitionFixture.regularPartition();
        given(tasksIn(partition, "a", "b"));
        consume(workerA(), 2);
        advance(Duration.ofSeconds(3));
        long ackedAt = now();

        store.ack(workerA(), ids("a"));
        store.complete(workerA(), Map.of(id("b"), new byte[] {1}));

        assertThat(allEvents()).extracting(TaskEvent::seq, TaskEvent::type, TaskEvent::id, TaskEvent::partition,
                TaskEvent::at, TaskEvent::reason).containsExactly(
                tuple(1L, COMPLETED, id("a"), partition, Instant.ofEpochMilli(ackedAt), Optional.empty()),
                tuple(2L, COMPLETED, id("b"), partition, Instant.ofEpochMilli(ackedAt), Optional.empty()));
    }

    @Test
    void a_reject_is_a_failure_until_the_attempts_run_out_and_then_a_dead_lettering_with_the_reason() {
        keepEvents(100);
        configure(settings -> settings.maxAttempts(2));
        given(task("a"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("a"), Rejection.retryNow("first try failed"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("a"), Rejection.retryNow("second try failed"));

        assertThat(allEvents()).extracting(TaskEvent::type, TaskEvent::id, TaskEvent::reason).containsExactly(
                tuple(FAILED, id("a"), Optional.of("first try failed")),
                tuple(DEAD_LETTERED, id("a"), Optional.of("second try failed")));
    }

    @Test
    void a_failure_for_good_is_a_dead_lettering() {
        keepEvents(100);
        given(task("a"));
        consume(workerA(), 1);

        store.fail(workerA(), ids("a"), "bad input");

        assertThat(allEvents()).extracting(TaskEvent::type, TaskEvent::reason)
                .containsExactly(tuple(DEAD_LETTERED, Optional.of("bad input")));
    }

    @Test
    void reclaim_tells_a_failure_with_why_it_took_the_task_back() {
        keepEvents(100);
        given(task("a"));
        consume(workerA(), 1);
        letDefaultHeartbeatsExpire();

        store.reclaim();

        assertThat(allEvents()).extracting(TaskEvent::type, TaskEvent::id, TaskEvent::reason).containsExactly(
                tuple(FAILED, id("a"), Optional.of(Reasons.holderStoppedHeartbeating(workerA()))));
    }

    @Test
    void a_cancelled_task_is_told_once_when_it_goes_waiting_dead_or_leaving_its_holder() {
        keepEvents(100);
        Partition partition = PartitionFixture.regularPartition();
        given(tasksIn(partition, "held", "dead", "waiting"));
        consume(workerA(), 2);
        store.fail(workerA(), ids("dead"), "broken");

        store.cancel(ids("waiting", "dead", "held"));
        assertThat(allEvents()).extracting(TaskEvent::type, TaskEvent::id).containsExactly(
                tuple(DEAD_LETTERED, id("dead")), tuple(CANCELLED, id("waiting")), tuple(CANCELLED, id("dead")));
        store.release(workerA(), ids("held"));

        assertThat(allEvents()).extracting(TaskEvent::type, TaskEvent::id).endsWith(tuple(CANCELLED, id("held")))
                .hasSize(4);
    }

    @Test
    void a_release_and_a_publish_are_no_events() {
        keepEvents(100);
        given(task("a"));
        consume(workerA(), 1);

        store.release(workerA(), ids("a"));

        assertThat(allEvents()).isEmpty();
    }

    @Test
    void a_follower_reads_on_from_the_cursor_a_page_gave() {
        keepEvents(100);
        Partition partition = PartitionFixture.regularPartition();
        given(tasksIn(partition, "a", "b", "c"));
        consume(workerA(), 3);
        store.ack(workerA(), ids("a", "b"));

        TaskEventPage first = store.events(ListingCursor.START, 1);
        TaskEventPage second = store.events(first.next(), 10);
        TaskEventPage caughtUp = store.events(second.next(), 10);
        store.ack(workerA(), ids("c"));
        TaskEventPage third = store.events(caughtUp.next(), 10);

        assertThat(first.events()).extracting(TaskEvent::id).containsExactly(id("a"));
        assertThat(second.events()).extracting(TaskEvent::id).containsExactly(id("b"));
        assertThat(caughtUp.events()).isEmpty();
        assertThat(caughtUp.next()).isEqualTo(second.next());
        assertThat(third.events()).extracting(TaskEvent::id).containsExactly(id("c"));
        assertThat(List.of(first, second, caughtUp, third)).extracting(TaskEventPage::missed).containsOnly(false);
    }

    @Test
    void the_log_keeps_the_latest_events_and_a_follower_left_behind_is_told_it_missed_some() {
        keepEvents(2);
        Partition partition = PartitionFixture.regularPartition();
        given(tasksIn(partition, "a", "b", "c", "d"));
        consume(workerA(), 4);
        store.ack(workerA(), ids("a"));
        TaskEventPage read = store.events(ListingCursor.START, 10);

        store.ack(workerA(), ids("b", "c", "d"));
        TaskEventPage behind = store.events(read.next(), 10);

        assertThat(read.events()).extracting(TaskEvent::id).containsExactly(id("a"));
        assertThat(behind.events()).extracting(TaskEvent::seq, TaskEvent::id)
                .containsExactly(tuple(3L, id("c")), tuple(4L, id("d")));
        assertThat(behind.missed()).as("b was dropped before it was read").isTrue();
        assertThat(store.events(behind.next(), 10).missed()).isFalse();
    }

    @Test
    void turning_the_log_off_drops_it_and_turning_it_on_again_goes_on_numbering() {
        keepEvents(100);
        Partition partition = PartitionFixture.regularPartition();
        given(tasksIn(partition, "a", "b", "c"));
        consume(workerA(), 3);
        store.ack(workerA(), ids("a"));

        keepEvents(0);
        store.ack(workerA(), ids("b"));
        assertThat(allEvents()).isEmpty();
        keepEvents(100);
        store.ack(workerA(), ids("c"));

        assertThat(allEvents()).extracting(TaskEvent::seq, TaskEvent::id).containsExactly(tuple(2L, id("c")));
    }

    @Test
    void events_of_several_partitions_come_in_the_order_they_happened() {
        keepEvents(100);
        given(task("first"), task("second"), task("third"));
        consume(workerA(), 3);
        for (String id : List.of("second", "first", "third")) {
            store.ack(workerA(), ids(id));
            advanceMillis(5);
        }

        assertThat(allEvents()).extracting(TaskEvent::id).containsExactly(id("second"), id("first"), id("third"));
    }

    @Test
    void a_lost_lease_tells_nothing() {
        keepEvents(100);
        given(task("a"));
        consume(workerA(), 1);

        store.ack(workerB(), ids("a"));
        store.reject(workerB(), ids("a"), Rejection.retryNow("not mine"));

        assertThat(allEvents()).isEmpty();
    }

    @Test
    void bad_reads_and_settings_are_refused_naming_the_field() {
        assertInvalid("limit", () -> store.events(ListingCursor.START, 0));
        assertInvalid("limit", () -> store.events(ListingCursor.START, TaskEvents.MAX_EVENTS + 1));
        assertInvalid("cursor", () -> store.events("not a cursor", 10));
        assertInvalid("cursor", () -> store.events(null, 10));
        assertInvalid("eventLogLength", () -> QueueSettings.builder().eventLogLength(-1).build());
        assertInvalid("eventLogLength",
                () -> QueueSettings.builder().eventLogLength(QueueSettings.MAX_EVENT_LOG_LENGTH + 1).build());

        keepEvents(QueueSettings.MAX_EVENT_LOG_LENGTH);
        assertThat(store.settings().eventLogLength()).isEqualTo(QueueSettings.MAX_EVENT_LOG_LENGTH);
    }
}
