package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** An ordered batch runs in order on one thread; a failure in it returns the rest (SPEC rule 5). */
class OrderedBatchTest {
    private static final Partition ACCOUNT = Partition.ordered("account-42");

    private final WorkerHarness harness = new WorkerHarness();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void an_ordered_batch_runs_sequentially_in_order_on_one_thread() {
        harness.options.concurrency(4).prefetch(8);
        harness.publish(ACCOUNT, "t1", "t2", "t3", "t4", "t5");
        List<String> running = new CopyOnWriteArrayList<>();
        List<String> overlaps = new CopyOnWriteArrayList<>();

        harness.start((payload, context) -> {
            if (!running.isEmpty()) {
                overlaps.add(payload + " started while " + running + " ran");
            }
            running.add(payload);
            Thread.sleep(5);
            running.remove(payload);
            return Outcome.success();
        });

        Eventually.until("all five are processed", () -> harness.events.count(Settlement.PROCESSED) == 5);
        assertThat(harness.events.started).containsExactly("t1", "t2", "t3", "t4", "t5");
        assertThat(Set.copyOf(harness.events.startedThreads)).hasSize(1);
        assertThat(overlaps).isEmpty();
    }

    @Test
    void a_failure_returns_the_rest_of_the_batch_unprocessed_and_the_batch_resumes_in_order() {
        harness.publish(ACCOUNT, "t1", "t2", "t3", "t4", "t5");
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();

        harness.start((payload, context) -> {
            if (payload.equals("t3") && failedOnce.add(payload)) {
                throw new IllegalStateException("ledger locked");
            }
            return Outcome.success();
        });

        Eventually.until("t3 is returned, t4 and t5 with it", () -> harness.events.count(Settlement.RETRIED) == 1
                && harness.events.count(Settlement.RETURNED_WITH_BATCH) == 2);
        assertThat(harness.events.started).containsExactly("t1", "t2", "t3");
        assertThat(harness.events.settlementsOf("t4")).containsExactly(Settlement.RETURNED_WITH_BATCH);
        assertThat(harness.events.settlementsOf("t5")).containsExactly(Settlement.RETURNED_WITH_BATCH);
        assertThat(harness.get("t4").task().attempts()).as("t4 never ran").isZero();
        assertThat(harness.get("t4").state()).isEqualTo(TaskState.PENDING);

        harness.clock.advance(Duration.ofSeconds(1));
        Eventually.until("all five are processed", () -> harness.events.count(Settlement.PROCESSED) == 5);
        assertThat(harness.events.started).containsExactly("t1", "t2", "t3", "t3", "t4", "t5");
    }

    @Test
    void an_explicit_fail_dead_letters_one_task_and_the_batch_goes_on() {
        harness.publish(ACCOUNT, "t1", "t2", "t3");

        harness.start((payload, context) -> payload.equals("t2") ? Outcome.fail("bad amount") : Outcome.success());

        Eventually.until("t1 and t3 are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(harness.events.started).containsExactly("t1", "t2", "t3");
        assertThat(harness.events.settlementsOf("t2")).containsExactly(Settlement.DEAD_LETTERED);
    }

    @Test
    void a_rate_limit_returns_the_rest_of_the_batch_and_blocks_the_partition() {
        harness.publish(ACCOUNT, "t1", "t2", "t3");

        harness.start((payload, context) -> payload.equals("t2") && context.attempt() == 1 && harness.events.count(Settlement.RATE_LIMITED) == 0
                ? Outcome.rateLimited(Duration.ofSeconds(10), "bank API throttled") : Outcome.success());

        Eventually.until("t2 is rate-limited, t3 returned with it", () -> harness.events.count(Settlement.RATE_LIMITED) == 1
                && harness.events.count(Settlement.RETURNED_WITH_BATCH) == 1);
        assertThat(harness.events.settlementsOf("t3")).containsExactly(Settlement.RETURNED_WITH_BATCH);
        assertThat(harness.get("t2").task().attempts()).isZero();

        harness.clock.advance(Duration.ofSeconds(10));
        Eventually.until("all are processed", () -> harness.events.count(Settlement.PROCESSED) == 3);
        assertThat(harness.events.started).containsExactly("t1", "t2", "t2", "t3");
    }

    @Test
    void regular_tasks_run_beside_an_ordered_batch() {
        harness.options.concurrency(2).prefetch(4);
        harness.publish(ACCOUNT, "t1", "t2");
        harness.publish(Partition.regular("audit"), "a1", "a2");

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("all four are processed", () -> harness.events.count(Settlement.PROCESSED) == 4);
        assertThat(harness.events.started).containsSubsequence("t1", "t2");
    }
}
