package io.ordo.tck.contract;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.ReclaimCause;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.worker;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.ConsumerFixture.workerC;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

/** Reclaiming the tasks of consumers whose heartbeat expired. */
public abstract class ReclaimContract extends ContractContext {
    protected ReclaimContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void reclaim_returns_every_in_flight_task_of_a_dead_consumer_in_order_with_attempts_kept() {
        Partition ordered = orderedPartition();
        Partition busy = regularPartition();
        Partition quiet = regularPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        given(tasksIn(busy, "b1", "b2", "b3"));
        given(task("q1", quiet));
        assertThat(consumeIds(workerA(), 6)).containsExactlyInAnyOrder("o1", "o2", "o3", "b1", "b2", "q1");
        letDefaultHeartbeatsExpire();

        ReclaimReport report = store.reclaim();

        assertThat(report).isEqualTo(new ReclaimReport(List.of(workerA()), 6, 0, 0));
        assertThat(List.of("o1", "o2", "o3", "b1", "b2", "q1")).allSatisfy(id -> {
            assertThat(stateOf(id)).isEqualTo(PENDING);
            assertThat(attemptsOf(id)).isEqualTo(1);
        });
        QueueStats stats = store.stats();
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.lockedPartitions()).isZero();
        assertThat(stats.ready()).isEqualTo(7);
        List<Lease> leases = consume(workerB(), 10);
        assertThat(leasesIn(leases, ordered)).containsExactly("o1", "o2", "o3");
        assertThat(leasesIn(leases, busy)).as("original positions, ahead of b3").containsExactly("b1", "b2", "b3");
        assertThat(leasesIn(leases, quiet)).containsExactly("q1");
    }

    @Test
    void reclaim_leaves_live_consumers_alone() {
        given(task("a"));
        consume(workerA(), 1);
        advance(DEFAULT_TTL.minusMillis(1));

        assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
        assertThat(snapshot("a").holder()).contains(workerA());
    }

    @Test
    void reclaim_returns_tasks_to_their_original_positions() {
        Partition regular = regularPartition();
        given(tasksIn(regular, "a", "b", "c"));
        consume(workerA(), 1);
        consume(workerB(), 1);
        store.heartbeat(workerB(), Duration.ofMinutes(10));
        letDefaultHeartbeatsExpire();

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0));

        assertThat(consumeIds(workerC(), 10)).containsExactly("a", "c");
        assertThat(snapshot("b").holder()).contains(workerB());
    }

    @Test
    void reclaim_releases_the_ordered_lock_of_a_dead_consumer() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3"));
        consume(workerA(), 2);
        store.heartbeat(workerB(), Duration.ofMinutes(10));
        assertThat(consume(workerB(), 10)).isEmpty();
        letDefaultHeartbeatsExpire();

        store.reclaim();

        assertThat(consumeIds(workerB(), 10)).containsExactly("o1", "o2", "o3");
    }

    @Test
    void a_task_that_keeps_killing_its_consumers_reaches_the_dead_letters() {
        given(task("poison"));
        for (int round = 1; round < QueueSettings.DEFAULT_MAX_ATTEMPTS; round++) {
            assertThat(consumeIds(worker("victim-" + round), 1)).containsExactly("poison");
            letDefaultHeartbeatsExpire();
            assertThat(store.reclaim()).as("round %d", round)
                    .isEqualTo(new ReclaimReport(List.of(worker("victim-" + round)), 1, 0, 0));
        }
        ConsumerId last = worker("victim-" + QueueSettings.DEFAULT_MAX_ATTEMPTS);
        consume(last, 1);
        letDefaultHeartbeatsExpire();

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(last), 0, 1, 0));

        assertThat(stateOf("poison")).isEqualTo(DEAD);
        assertThat(attemptsOf("poison")).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
        assertThat(store.deadLetters(0, 10).items()).singleElement()
                .satisfies(dead -> assertThat(dead.reason()).isEqualTo("consumer " + last + " stopped heartbeating"));
        assertThat(store.stats().deadLetteredTotal()).isEqualTo(1);
    }

    @Test
    void a_registered_consumer_holding_nothing_is_declared_dead_and_forgotten() {
        store.heartbeat(workerA(), Duration.ofSeconds(1));
        advance(Duration.ofSeconds(1));

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 0, 0, 0));
        assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
    }

    @Test
    void a_second_reclaim_finds_nothing_more() {
        given(task("a"));
        consume(workerA(), 1);
        letDefaultHeartbeatsExpire();
        store.reclaim();

        assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
        assertThat(attemptsOf("a")).isEqualTo(1);
    }

    @Test
    void a_task_in_flight_longer_than_the_processing_timeout_is_taken_back_from_a_live_consumer() {
        configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
        given(task("hung"));
        consume(workerA(), 1);
        store.heartbeat(workerA(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(60).minusMillis(1));
        assertThat(store.reclaim()).isEqualTo(ReclaimReport.NOTHING);
        advanceMillis(1);

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 1, 0, 1));

        assertThat(stateOf("hung")).isEqualTo(PENDING);
        assertThat(attemptsOf("hung")).isEqualTo(1);
        assertThat(store.ack(workerA(), ids("hung"))).containsExactly(entry(id("hung"), AckOutcome.LEASE_LOST));
        assertThat(store.stats().liveConsumers()).isEqualTo(1);
    }

    @Test
    void a_timed_out_task_out_of_attempts_is_dead_lettered_with_the_timeout_as_reason() {
        configure(s -> s.processingTimeout(Duration.ofSeconds(60)).maxAttempts(1));
        given(task("hung"));
        consume(workerA(), 1);
        store.heartbeat(workerA(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(60));

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 0, 1, 1));

        assertThat(store.deadLetters(0, 10).items()).singleElement()
                .satisfies(dead -> assertThat(dead.reason()).isEqualTo("processing timed out after 60000 ms"));
    }

    @Test
    void a_timed_out_ordered_task_takes_the_rest_of_its_batch_back_with_it() {
        configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2", "o3", "o4"));
        consume(workerA(), 4);
        store.heartbeat(workerA(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(10));
        store.ack(workerA(), ids("o1"));
        advance(Duration.ofSeconds(50));

        ReclaimReport report = store.reclaim();

        // How many of the batch count as timedOut is left open by docs/semantics.md, so it is not asserted.
        assertThat(report.deadConsumers()).isEmpty();
        assertThat(report.returned()).isEqualTo(3);
        assertThat(report.deadLettered()).isZero();
        assertThat(List.of("o2", "o3", "o4")).extracting(this::attemptsOf)
                .as("the hung task's attempt counts; the ones after it never ran").containsExactly(1, 0, 0);
        assertThat(store.stats().lockedPartitions()).isZero();
        assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o3", "o4");
    }

    @Test
    void the_hung_task_of_a_timed_out_ordered_batch_is_its_first_by_key_not_by_publish_order() {
        configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
        Partition ordered = orderedPartition();
        given(task("published-first", ordered), task("urgent", ordered).priority(5));
        assertThat(consumeIds(workerA(), 2)).containsExactly("urgent", "published-first");
        store.heartbeat(workerA(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(60));

        assertThat(store.reclaim().returned()).isEqualTo(2);

        assertThat(attemptsOf("urgent")).isEqualTo(1);
        assertThat(attemptsOf("published-first")).as("never ran").isZero();
    }

    @Test
    void concurrent_reclaims_return_each_task_exactly_once() throws Exception {
        given(task("a"), task("b"), task("c"));
        consume(workerA(), 3);
        letDefaultHeartbeatsExpire();
        int reapers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(reapers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<ReclaimReport>> reports = new ArrayList<>();
            for (int i = 0; i < reapers; i++) {
                reports.add(pool.submit(() -> {
                    start.await();
                    return store.reclaim();
                }));
            }
            start.countDown();

            int returned = 0;
            List<ConsumerId> dead = new ArrayList<>();
            for (Future<ReclaimReport> report : reports) {
                returned += report.get(30, TimeUnit.SECONDS).returned();
                dead.addAll(report.get().deadConsumers());
            }

            assertThat(returned).isEqualTo(3);
            assertThat(dead).containsExactly(workerA());
            assertThat(List.of("a", "b", "c")).extracting(this::attemptsOf).containsOnly(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_reclaimed_task_carries_why_it_came_back_beside_the_text_until_another_error_replaces_it() {
        configure(s -> s.processingTimeout(Duration.ofSeconds(60)));
        given(task("orphan"));
        given(task("hung"));
        consume(workerA(), 1);
        letDefaultHeartbeatsExpire();
        store.reclaim();
        consume(workerB(), 2);
        store.heartbeat(workerB(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(60));

        store.reclaim();

        List<Lease> back = consume(workerB(), 2);
        assertThat(back).extracting(lease -> lease.id().value(), lease -> lease.task().reclaimCause(),
                lease -> lease.task().lastError()).containsExactlyInAnyOrder(
                tuple("orphan", ReclaimCause.PROCESSING_TIMED_OUT, "processing timed out after 60000 ms"),
                tuple("hung", ReclaimCause.PROCESSING_TIMED_OUT, "processing timed out after 60000 ms"));
        store.reject(workerB(), ids("orphan"), Rejection.retryNow("flaky"));
        assertThat(snapshot("orphan").task().reclaimCause()).as("a reject's error is not reclaim's").isNull();
        assertThat(snapshot("orphan").task().lastError()).isEqualTo("flaky");
    }

    @Test
    void a_task_reclaimed_from_a_dead_consumer_says_so_and_keeps_it_through_the_dead_letters() {
        configure(s -> s.maxAttempts(1));
        given(task("a"));
        given(task("b"));
        String first = consumeIds(workerA(), 1).get(0);
        letDefaultHeartbeatsExpire();
        store.reclaim();
        String second = consumeIds(workerB(), 1).get(0);
        letDefaultHeartbeatsExpire();

        store.reclaim();

        assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.id().value(),
                dead -> dead.task().reclaimCause(), DeadLetter::reason).containsExactlyInAnyOrder(
                tuple(first, ReclaimCause.HOLDER_STOPPED_HEARTBEATING, "consumer " + workerA() + " stopped heartbeating"),
                tuple(second, ReclaimCause.HOLDER_STOPPED_HEARTBEATING, "consumer " + workerB() + " stopped heartbeating"));
        store.redrive(ids(second));
        assertThat(consume(workerC(), 10)).singleElement()
                .satisfies(lease -> assertThat(lease.task().reclaimCause()).isEqualTo(ReclaimCause.HOLDER_STOPPED_HEARTBEATING));
    }
}
