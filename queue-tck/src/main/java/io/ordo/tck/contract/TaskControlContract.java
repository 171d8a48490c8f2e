package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.LeaseStatus;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskConsuming;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.FailOutcome.CANCELLED;
import static io.ordo.tck.contract.StoreCharacteristic.CANCEL_ON_FETCH;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Controlling tasks in flight (docs/task-control.md): cancelling a running task, a task's own processing
 * timeout, lease extensions, and progress carried on heartbeats.
 */
public abstract class TaskControlContract extends ContractContext {
    protected TaskControlContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private LeaseStatus leaseOf(String id) {
        return snapshot(id).lease().orElseThrow(() -> new AssertionError(id + " has no lease"));
    }

    // ---------------------------------------------------------------- cancelling a running task

    @Test
    void cancelling_a_task_in_flight_marks_it_and_its_holder_learns_so_on_its_heartbeat() {
        given(task("a"), task("b"));
        consume(workerA(), 2);

        assertThat(store.cancel(ids("a"))).containsExactly(entry(id("a"), CancelOutcome.CANCEL_REQUESTED));

        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        assertThat(leaseOf("a").cancelRequested()).isTrue();
        assertThat(leaseOf("b").cancelRequested()).isFalse();
        assertThat(store.heartbeat(workerA(), DEFAULT_TTL, Map.of())).containsExactly(id("a"));
        assertThat(store.heartbeat(workerB(), DEFAULT_TTL, Map.of())).isEmpty();
        assertThat(store.cancel(ids("a"))).as("asked again").containsExactly(entry(id("a"), CancelOutcome.CANCEL_REQUESTED));
        assertThat(store.heartbeat(workerA(), DEFAULT_TTL, Map.of())).as("until the task leaves").containsExactly(id("a"));
    }

    @Test
    @RequiresCharacteristic(CANCEL_ON_FETCH)
    void a_fetch_names_the_cancellations_asked_of_the_tasks_its_consumer_holds() {
        given(task("a"), task("b"), task("c"));
        consume(workerA(), 2);
        store.cancel(ids("a"));

        var fetched = store.ackAndConsume(workerA(), ids("b"), 1, NO_WAIT);

        assertThat(fetched.acks()).containsExactly(entry(id("b"), ACKED));
        assertThat(fetched.taken()).extracting(lease -> lease.id().value()).containsExactly("c");
        assertThat(fetched.cancelRequested()).containsExactly(id("a"));
        assertThat(store.ackAndConsume(workerB(), List.of(), 0, NO_WAIT).cancelRequested()).isEmpty();
    }

    @Test
    void a_cancelled_task_given_back_is_deleted_not_retried_nor_dead_lettered() {
        given(task("released"), task("rejected"), task("failed"));
        consume(workerA(), 3);
        store.cancel(ids("released", "rejected", "failed"));

        assertThat(store.release(workerA(), ids("released"))).containsExactly(
                entry(id("released"), io.ordo.ports.ReleaseOutcome.CANCELLED));
        assertThat(store.reject(workerA(), ids("rejected"), Rejection.retryNow("stopped"))).containsExactly(
                entry(id("rejected"), io.ordo.ports.RejectOutcome.CANCELLED));
        assertThat(store.fail(workerA(), ids("failed"), "stopped")).containsExactly(entry(id("failed"), CANCELLED));

        assertThat(List.of("released", "rejected", "failed")).allSatisfy(id -> assertThat(store.get(id(id))).isEmpty());
        QueueStats stats = store.stats();
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.dead()).isZero();
        assertThat(stats.ready()).isZero();
        assertThat(consume(workerB(), 10)).isEmpty();
        assertThat(store.heartbeat(workerA(), DEFAULT_TTL, Map.of())).isEmpty();
    }

    @Test
    void an_ordered_partition_goes_on_after_its_running_task_is_cancelled() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("o1");
        store.cancel(ids("o1"));

        assertThat(store.release(workerA(), ids("o1"))).containsExactly(
                entry(id("o1"), io.ordo.ports.ReleaseOutcome.CANCELLED));

        assertThat(store.stats().lockedPartitions()).isZero();
        assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o3");
    }

    @Test
    void a_cancelled_task_in_an_ordered_batch_returned_with_it_is_deleted_and_the_rest_keep_their_order() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        assertThat(consumeIds(workerA(), 3)).containsExactly("o1", "o2", "o3");
        store.cancel(ids("o2"));

        assertThat(store.reject(workerA(), ids("o1"), Rejection.retryNow("retry"))).containsExactly(
                entry(id("o1"), io.ordo.ports.RejectOutcome.RETURNED),
                entry(id("o2"), io.ordo.ports.RejectOutcome.CANCELLED),
                entry(id("o3"), io.ordo.ports.RejectOutcome.RETURNED_WITH_BATCH));

        assertThat(store.get(id("o2"))).isEmpty();
        assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o3");
    }

    @Test
    void a_holder_that_acks_a_task_whose_cancellation_was_asked_completes_it() {
        given(task("a"));
        consume(workerA(), 1);
        store.cancel(ids("a"));

        assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));

        assertThat(store.get(id("a"))).isEmpty();
        assertThat(store.stats().ackedTotal()).isEqualTo(1);
        assertThat(store.heartbeat(workerA(), DEFAULT_TTL, Map.of())).isEmpty();
    }

    @Test
    void reclaim_deletes_the_cancelled_tasks_of_a_dead_consumer_and_returns_the_rest() {
        given(task("cancelled"), task("kept"));
        consume(workerA(), 2);
        store.cancel(ids("cancelled"));
        letDefaultHeartbeatsExpire();

        ReclaimReport report = store.reclaim();

        assertThat(report).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0, 1));
        assertThat(store.get(id("cancelled"))).isEmpty();
        assertThat(stateOf("kept")).isEqualTo(PENDING);
        assertThat(consumeIds(workerB(), 10)).containsExactly("kept");
    }

    // ---------------------------------------------------------------- deadlines and extensions

    @Test
    void a_task_with_its_own_timeout_is_taken_back_from_a_live_holder_at_its_deadline() {
        given(task("own").timeout(Duration.ofSeconds(5)), task("plain"));
        long leasedAt = now();
        consume(workerA(), 2);
        assertThat(leaseOf("own").deadline()).contains(Instant.ofEpochMilli(leasedAt + 5_000));
        assertThat(leaseOf("plain").deadline()).as("the queue has no processing timeout").isEmpty();

        advanceMillis(4_999);
        assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
        advanceMillis(1);
        ReclaimReport report = store.reclaim();

        assertThat(report).isEqualTo(new ReclaimReport(List.of(), 1, 0, 1));
        assertThat(stateOf("own")).isEqualTo(PENDING);
        assertThat(snapshot("own").task().lastError()).isEqualTo("processing timed out after 5000 ms");
        assertThat(snapshot("own").task().reclaimCause()).isEqualTo(ReclaimCause.PROCESSING_TIMED_OUT);
        assertThat(snapshot("own").task().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(stateOf("plain")).isEqualTo(IN_FLIGHT);
    }

    @Test
    void a_task_s_own_timeout_replaces_the_queue_s() {
        configure(settings -> settings.processingTimeout(Duration.ofSeconds(2)));
        given(task("long").timeout(Duration.ofSeconds(10)), task("short"));
        consume(workerA(), 2);

        advance(Duration.ofSeconds(2));
        assertThat(store.reclaim().timedOut()).isEqualTo(1);

        assertThat(stateOf("short")).isEqualTo(PENDING);
        assertThat(stateOf("long")).isEqualTo(IN_FLIGHT);
        advance(Duration.ofSeconds(8));
        assertThat(store.reclaim().timedOut()).isEqualTo(1);
        assertThat(stateOf("long")).isEqualTo(PENDING);
    }

    @Test
    void an_extended_lease_is_not_taken_back_before_its_new_deadline() {
        configure(settings -> settings.processingTimeout(Duration.ofSeconds(10)));
        given(task("a"), task("b"));
        long leasedAt = now();
        consume(workerA(), 2);
        assertThat(leaseOf("a").deadline()).contains(Instant.ofEpochMilli(leasedAt + 10_000));
        advance(Duration.ofSeconds(8));

        assertThat(store.extendLease(workerA(), ids("a"), Duration.ofSeconds(10)))
                .containsExactly(entry(id("a"), ExtendOutcome.EXTENDED));

        assertThat(leaseOf("a").deadline()).contains(Instant.ofEpochMilli(leasedAt + 18_000));
        advance(Duration.ofSeconds(2));
        assertThat(store.reclaim().timedOut()).as("b at the queue's timeout").isEqualTo(1);
        store.heartbeat(workerA(), DEFAULT_TTL);
        advanceMillis(7_999);
        assertThat(store.reclaim().timedOut()).isZero();
        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        advanceMillis(1);
        assertThat(store.reclaim().timedOut()).isEqualTo(1);
        assertThat(snapshot("a").task().lastError()).isEqualTo("processing timed out after 18000 ms");
    }

    @Test
    void an_extension_replaces_the_earlier_one_and_goes_with_its_lease() {
        configure(settings -> settings.processingTimeout(Duration.ofSeconds(10)));
        given(task("a"));
        consume(workerA(), 1);
        store.extendLease(workerA(), ids("a"), Duration.ofHours(1));
        long extendedAt = now();

        store.extendLease(workerA(), ids("a"), Duration.ofSeconds(30));

        assertThat(leaseOf("a").deadline()).contains(Instant.ofEpochMilli(extendedAt + 30_000));
        store.release(workerA(), ids("a"));
        long leasedAgainAt = now();
        consume(workerB(), 1);
        assertThat(leaseOf("a").deadline()).as("the next delivery has the queue's timeout")
                .contains(Instant.ofEpochMilli(leasedAgainAt + 10_000));
    }

    @Test
    void a_lease_the_consumer_does_not_hold_or_whose_cancellation_was_asked_is_not_extended() {
        given(task("first"), task("second"));
        List<String> taken = consumeIds(workerA(), 2);
        String held = taken.get(0);
        String cancelled = taken.get(1);
        given(task("waiting"));
        store.cancel(ids(cancelled));

        assertThat(store.extendLease(workerA(), ids(held, cancelled, "waiting", "unknown"), Duration.ofMinutes(1)))
                .containsExactly(entry(id(held), ExtendOutcome.EXTENDED),
                        entry(id(cancelled), ExtendOutcome.CANCEL_REQUESTED),
                        entry(id("waiting"), ExtendOutcome.LEASE_LOST), entry(id("unknown"), ExtendOutcome.LEASE_LOST));
        assertThat(store.extendLease(workerB(), ids(held), Duration.ofMinutes(1)))
                .containsExactly(entry(id(held), ExtendOutcome.LEASE_LOST));
        assertThat(leaseOf(cancelled).deadline()).isEmpty();
    }

    @Test
    void an_extension_outside_its_bounds_is_refused() {
        given(task("a"));
        consume(workerA(), 1);

        assertInvalid("extension", () -> store.extendLease(workerA(), ids("a"), Duration.ofMillis(999)));
        assertInvalid("extension", () -> store.extendLease(workerA(), ids("a"),
                TaskConsuming.MAX_LEASE_EXTENSION.plusMillis(1)));
        assertInvalid("ids", () -> store.extendLease(workerA(), null, Duration.ofMinutes(1)));

        assertThat(leaseOf("a").deadline()).isEmpty();
    }

    // ---------------------------------------------------------------- progress

    @Test
    void progress_rides_on_heartbeats_and_get_shows_the_last_report() {
        given(task("a"), task("b"));
        consume(workerA(), 2);
        assertThat(leaseOf("a").progress()).isEmpty();

        store.heartbeat(workerA(), DEFAULT_TTL, Map.of(id("a"), new Progress(40, "page 4 of 10")));
        long reportedAt = now();
        advanceMillis(500);
        store.heartbeat(workerA(), DEFAULT_TTL, Map.of(id("b"), Progress.of(5)));

        assertThat(leaseOf("a").progress()).contains(new Progress(40, "page 4 of 10"));
        assertThat(leaseOf("a").progressAt()).contains(Instant.ofEpochMilli(reportedAt));
        assertThat(leaseOf("b").progress()).contains(Progress.of(5));
        store.heartbeat(workerA(), DEFAULT_TTL, Map.of(id("a"), new Progress(90, "")));
        assertThat(leaseOf("a").progress()).as("a later report replaces it").contains(new Progress(90, ""));
    }

    @Test
    void progress_of_a_task_the_consumer_does_not_hold_is_ignored_and_progress_goes_with_its_lease() {
        given(task("a"));
        consume(workerA(), 1);

        store.heartbeat(workerB(), DEFAULT_TTL, Map.of(id("a"), Progress.of(50), TaskId.of("unknown"), Progress.of(1)));

        assertThat(leaseOf("a").progress()).isEmpty();
        store.heartbeat(workerA(), DEFAULT_TTL, Map.of(id("a"), Progress.of(60)));
        store.release(workerA(), ids("a"));
        consume(workerB(), 1);
        assertThat(leaseOf("a").progress()).as("a new delivery starts without progress").isEmpty();
    }

    @Test
    void a_heartbeat_without_progress_reports_is_refused() {
        assertInvalid("progress", () -> store.heartbeat(workerA(), DEFAULT_TTL, null));
    }
}
