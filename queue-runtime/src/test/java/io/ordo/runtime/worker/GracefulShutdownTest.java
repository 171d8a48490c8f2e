package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** Stop: no more fetching, running work finishes within the grace period, the rest goes back at once. */
class GracefulShutdownTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final CountDownLatch finish = new CountDownLatch(1);

    @AfterEach
    void stop() {
        finish.countDown();
        harness.close();
    }

    @Test
    void tasks_that_have_not_started_go_back_at_once_without_counting_the_attempt() throws Exception {
        harness.options.concurrency(1).prefetch(4);
        harness.publish(Partition.regular("emails"), "m1", "m2", "m3", "m4");
        Worker<String> worker = harness.start((payload, context) -> {
            finish.await();
            return Outcome.success();
        });
        Eventually.until("four are held and one runs",
                () -> worker.heldTasks() == 4 && harness.events.started.size() == 1);

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(worker::stop);

        Eventually.until("the three waiting tasks are back", () -> harness.events.count(Settlement.RELEASED) == 3);
        String running = harness.events.started.get(0);
        for (String id : harness.events.settledAs(Settlement.RELEASED)) {
            assertThat(harness.get(id).state()).isEqualTo(TaskState.PENDING);
            assertThat(harness.get(id).task().attempts()).as("%s's attempt does not count", id).isZero();
        }
        assertThat(harness.get(running).state()).as("the running one still runs").isEqualTo(TaskState.IN_FLIGHT);
        assertThat(stopping).isNotDone();

        finish.countDown();
        stopping.get(5, TimeUnit.SECONDS);
        assertThat(harness.isGone(running)).as("the running task finished and was acked").isTrue();
        assertThat(harness.events.started).containsExactly(running);
        assertThat(worker.state()).isEqualTo(WorkerState.STOPPED);
    }

    @Test
    void stopping_mid_ordered_batch_finishes_the_current_task_and_returns_the_rest_in_order() throws Exception {
        harness.options.prefetch(8);
        harness.publish(Partition.ordered("account-42"), "t1", "t2", "t3", "t4", "t5");
        Worker<String> worker = harness.start((payload, context) -> {
            if (payload.equals("t2")) {
                finish.await();
            }
            return Outcome.success();
        });
        Eventually.until("t2 runs", () -> harness.events.started.contains("t2"));

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(worker::stop);
        Eventually.until("t3..t5 are back", () -> harness.events.count(Settlement.RELEASED) == 3);
        assertThat(harness.store.stats().ready()).isEqualTo(3);
        finish.countDown();
        stopping.get(5, TimeUnit.SECONDS);

        assertThat(harness.events.started).containsExactly("t1", "t2");
        assertThat(harness.events.events).containsSubsequence("released t3", "processed t2");
        assertThat(harness.isGone("t2")).isTrue();
        for (String id : new String[] {"t3", "t4", "t5"}) {
            assertThat(harness.get(id).task().attempts()).isZero();
        }
    }

    @Test
    void a_handler_still_running_after_the_grace_period_is_interrupted_and_its_task_returned() {
        harness.options.gracePeriod(Duration.ofMillis(200));
        harness.publish(Partition.regular("reports"), "slow");
        AtomicBoolean interrupted = new AtomicBoolean();
        Worker<String> worker = harness.start((payload, context) -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return Outcome.success();
        });
        Eventually.until("slow runs", () -> harness.events.started.contains("slow"));

        long startNanos = System.nanoTime();
        worker.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(3));
        assertThat(harness.events.settlementsOf("slow")).containsExactly(Settlement.RELEASED);
        assertThat(harness.get("slow").state()).isEqualTo(TaskState.PENDING);
        assertThat(harness.get("slow").task().attempts()).isZero();
        Eventually.until("the handler saw the interrupt", interrupted::get);
    }

    @Test
    void the_handler_can_see_that_the_worker_is_stopping() throws Exception {
        harness.publish(Partition.regular("reports"), "long");
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean sawStopping = new AtomicBoolean();
        Worker<String> worker = harness.start((payload, context) -> {
            running.countDown();
            while (!context.isStopping()) {
                Thread.sleep(1);
            }
            sawStopping.set(true);
            return Outcome.success();
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        worker.stop();

        assertThat(sawStopping).isTrue();
        assertThat(harness.isGone("long")).isTrue();
    }

    @Test
    void a_stopped_worker_stops_counting_as_a_live_consumer_and_fetches_nothing_more() {
        Worker<String> worker = harness.start((payload, context) -> Outcome.success());
        Eventually.until("the worker is registered", () -> harness.store.stats().liveConsumers() == 1);

        worker.stop();
        harness.clock.advanceMillis(1);
        harness.publish(Partition.regular("emails"), "late");
        Eventually.holdStill(Duration.ofMillis(50));

        assertThat(harness.store.stats().liveConsumers()).isZero();
        assertThat(harness.get("late").state()).isEqualTo(TaskState.PENDING);
        assertThat(worker.health().live()).isFalse();
    }

    @Test
    void stop_is_idempotent_and_works_on_a_worker_that_never_started() {
        Worker<String> never = Worker.builder(harness.store, String.class, (payload, context) -> Outcome.success()).build();
        never.stop();
        never.stop();
        assertThat(never.state()).isEqualTo(WorkerState.STOPPED);

        Worker<String> worker = harness.start((payload, context) -> Outcome.success());
        CompletableFuture<Void> first = CompletableFuture.runAsync(worker::stop);
        worker.stop();
        assertThat(first).succeedsWithin(Duration.ofSeconds(5));
    }
}
