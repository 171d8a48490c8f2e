package io.ordo.tck.contract;

import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_LIMITS;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rate limits: token buckets of the queue and of each partition, refilled on the store's clock; a delivery
 * takes one token of each, and a partition out of tokens waits for its next one without holding up others.
 */
public abstract class RateLimitsContract extends ContractContext {
    private static final Duration SECOND = Duration.ofSeconds(1);

    protected RateLimitsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LIMITS)
    void the_queue_delivers_its_tokens_and_then_one_per_token_as_they_come() {
        configure(s -> s.queueRateLimit(RateLimit.of(2, SECOND)));
        given(numberedTasksIn(regularPartition("p"), "p-", 6));

        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1", "p-2");
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advanceMillis(499);
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-3");
        advance(Duration.ofMinutes(1)); // a full bucket holds no more than its burst
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-4", "p-5");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_LIMITS)
    void a_quiet_queue_saves_up_to_its_burst() {
        configure(s -> s.queueRateLimit(RateLimit.of(1, SECOND).withBurst(3)));
        given(numberedTasksIn(regularPartition("p"), "p-", 10));
        assertThat(consumeIds(workerA(), 10)).hasSize(3);

        advance(Duration.ofSeconds(2));
        assertThat(consumeIds(workerB(), 10)).containsExactly("p-4", "p-5");
        advance(Duration.ofSeconds(10));
        assertThat(consumeIds(workerB(), 10)).containsExactly("p-6", "p-7", "p-8");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void each_partition_has_its_own_bucket_and_keeps_its_turn() {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, SECOND)));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        given(numberedTasksIn(regularPartition("q"), "q-", 3));

        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1", "q-1");
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advance(SECOND);
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-2", "q-2");
    }

    @Test
    void a_partition_out_of_tokens_does_not_hold_up_the_others() {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, Duration.ofMinutes(1))));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1");

        given(numberedTasksIn(regularPartition("q"), "q-", 2));

        assertThat(consumeIds(workerB(), 10)).containsExactly("q-1");
    }

    @Test
    void stats_count_the_partitions_with_tasks_waiting_out_of_tokens() {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, SECOND)));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        given(tasksIn(regularPartition("q"), "q-1"));
        assertThat(consumeIds(workerA(), 10)).containsExactlyInAnyOrder("p-1", "q-1");

        assertThat(store.stats().throttledPartitions()).as("p waits out of tokens; q is out of tokens, nothing waiting")
                .isEqualTo(1);
        given(tasksIn(regularPartition("q"), "q-2"));
        assertThat(store.stats().throttledPartitions()).isEqualTo(2);
        advance(SECOND);
        assertThat(store.stats().throttledPartitions()).as("a token each again").isZero();
        assertThat(store.stats().cappedPartitions()).isZero();
    }

    @Test
    void a_partition_that_empties_keeps_its_bucket() {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, SECOND)));
        given(tasksIn(regularPartition("p"), "p-1"));
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-1");

        given(tasksIn(regularPartition("p"), "p-2"));
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advance(SECOND);
        assertThat(consumeIds(workerA(), 10)).containsExactly("p-2");
    }

    @Test
    void the_partition_bucket_cuts_an_ordered_run() {
        configure(s -> s.partitionRateLimit(RateLimit.of(2, SECOND)));
        given(tasksIn(orderedPartition("o"), "o-1", "o-2", "o-3", "o-4"));

        assertThat(consumeIds(workerA(), 10)).containsExactly("o-1", "o-2");
        store.ack(workerA(), ids("o-1", "o-2"));
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advance(SECOND);
        assertThat(consumeIds(workerA(), 10)).containsExactly("o-3", "o-4");
    }

    @Test
    void a_waiting_consume_takes_work_when_the_next_token_comes() throws Exception {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, SECOND)));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        consume(workerA(), 5);

        CompletableFuture<List<String>> waiting = CompletableFuture.supplyAsync(() -> store
                .consume(workerB(), 5, Duration.ofMillis(PROMPTLY_MILLIS * 5)).stream()
                .map(lease -> lease.id().value()).toList());
        Thread.sleep(50);
        advance(SECOND);

        assertThat(waiting.get(PROMPTLY_MILLIS * 10, TimeUnit.MILLISECONDS)).containsExactly("p-2");
    }

    @Test
    void a_rate_limited_rejection_still_blocks_its_partition() {
        configure(s -> s.partitionRateLimit(RateLimit.of(100, SECOND)));
        given(numberedTasksIn(regularPartition("p"), "p-", 2));
        given(numberedTasksIn(regularPartition("q"), "q-", 2));
        consume(workerA(), 1);

        store.reject(workerA(), ids("p-1"), Rejection.rateLimited(Duration.ofSeconds(30), "429"));

        assertThat(consumeIds(workerB(), 10)).containsExactly("q-1", "q-2");
        advance(Duration.ofSeconds(30));
        assertThat(consumeIds(workerB(), 10)).containsExactly("p-2", "p-1"); // the retry moved p-1 back
    }

    @Test
    void turning_a_limit_off_lets_everything_deliver() {
        configure(s -> s.partitionRateLimit(RateLimit.of(1, Duration.ofMinutes(1))));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        consume(workerA(), 5);

        configure(s -> s.partitionRateLimit(RateLimit.OFF));

        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2", "p-3");
    }

    @Test
    void a_new_cap_keeps_the_partition_buckets_while_the_rate_stays() {
        RateLimit oneAMinute = RateLimit.of(1, Duration.ofMinutes(1));
        configure(s -> s.partitionRateLimit(oneAMinute).partitionConcurrency(5));
        given(numberedTasksIn(regularPartition("p"), "p-", 3));
        assertThat(consumeIds(workerA(), 5)).containsExactly("p-1");

        configure(s -> s.partitionRateLimit(oneAMinute).partitionConcurrency(3));

        assertThat(consumeIds(workerB(), 5)).as("the bucket emptied before the new cap").isEmpty();
        assertThat(store.stats().throttledPartitions()).isEqualTo(1);
        advance(Duration.ofMinutes(1));
        assertThat(consumeIds(workerB(), 5)).containsExactly("p-2");
    }

    @Test
    void limits_are_read_back_and_checked() {
        QueueSettings limited = QueueSettings.builder().queueRateLimit(RateLimit.of(100, SECOND).withBurst(20))
                .partitionRateLimit(new RateLimit(3, Duration.ofMillis(250), 1)).build();
        store.configure(limited);

        assertThat(store.settings()).isEqualTo(limited);
        assertInvalid("permits", () -> new RateLimit(-1, SECOND, 1));
        assertInvalid("per", () -> new RateLimit(1, Duration.ZERO, 1));
        assertInvalid("per", () -> new RateLimit(1, Duration.ofDays(2), 1));
        assertInvalid("burst", () -> new RateLimit(1, SECOND, 0));
        assertInvalid("queueRateLimit", () -> QueueSettings.builder().queueRateLimit(null).build());
    }
}
