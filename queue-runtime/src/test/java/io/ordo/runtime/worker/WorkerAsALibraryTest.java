package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Task;
import io.ordo.domain.Priority;
import io.ordo.domain.ConsumerId;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker behaves like a library's: it closes like any resource, says why a handler failed in the
 * log (without flooding it), and stops cleanly when its store is closed under it.
 */
class WorkerAsALibraryTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final RecordingLogger log = new RecordingLogger();
    private final CountDownLatch finish = new CountDownLatch(1);

    @AfterEach
    void stop() {
        finish.countDown();
        harness.close();
    }

    @Test
    void closing_a_worker_stops_it_gracefully_letting_the_running_task_finish() throws Exception {
        harness.publish(Partition.regular("p"), "t1");
        CountDownLatch running = new CountDownLatch(1);

        try (Worker<String> worker = harness.start((payload, context) -> {
            running.countDown();
            Thread.sleep(300);
            return Outcome.success();
        })) {
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(harness.worker.state()).isEqualTo(WorkerState.STOPPED);
        assertThat(harness.isGone("t1")).as("finished within the grace period and acked").isTrue();
    }

    @Test
    void a_handler_exception_is_logged_with_its_stack_trace() {
        harness.log = log;
        harness.publish(Partition.regular("p"), "t1");
        IllegalStateException boom = new IllegalStateException("boom");

        harness.start((payload, context) -> {
            throw boom;
        });

        Eventually.until("the failure is logged", () -> !log.at(Level.WARN).isEmpty());
        RecordingLogger.Entry entry = log.at(Level.WARN).get(0);
        assertThat(entry.throwable()).isSameAs(boom);
        assertThat(entry.message()).contains("queue work").contains("handler failed on task t1").contains("attempt 1")
                .contains("retried in 1000 ms");
    }

    @Test
    void an_undecodable_payload_is_logged_with_the_decoder_exception() {
        harness.log = log;
        harness.store.publish(java.util.List.of(NewTask.builder(Partition.regular("p"), "not json".getBytes())
                .id("bad").build()));

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("the failure is logged", () -> !log.at(Level.WARN).isEmpty());
        RecordingLogger.Entry entry = log.at(Level.WARN).get(0);
        assertThat(entry.throwable()).isNotNull();
        assertThat(entry.message()).contains("task bad").contains("cannot be decoded").contains("dead letter");
    }

    @Test
    void a_flood_of_failures_logs_at_most_ten_stack_traces_a_minute() {
        harness.log = log;
        harness.publish(Partition.regular("p"), IntStream.range(0, 50).mapToObj(i -> "t" + i).toArray(String[]::new));
        AtomicInteger failures = new AtomicInteger();

        harness.start((payload, context) -> {
            failures.incrementAndGet();
            throw new IllegalStateException("down");
        });

        Eventually.until("every task failed once", () -> failures.get() == 50
                && harness.events.count(Settlement.RETRIED) == 50);
        assertThat(log.at(Level.WARN)).hasSize(HandlerFailureLog.PER_WINDOW)
                .allSatisfy(entry -> assertThat(entry.throwable()).hasMessage("down"));
    }

    @Test
    void the_next_window_says_how_many_failures_were_left_out() {
        VirtualClock clock = new VirtualClock();
        HandlerFailureLog failures = new HandlerFailureLog(log, QueueName.of("q"), clock);
        Lease lease = new Lease(new Task(TaskId.of("t"), Partition.regular("p"), Priority.DEFAULT, new byte[0], Map.of(),
                1, 1, 0, 0, 0, null), ConsumerId.of("w"), 0);

        for (int i = 0; i < 15; i++) {
            failures.failed(lease, new IllegalStateException("x"), "retried");
        }
        clock.advance(HandlerFailureLog.WINDOW.minusMillis(1));
        failures.failed(lease, new IllegalStateException("x"), "retried");
        assertThat(log.entries).hasSize(10);

        clock.advance(Duration.ofMillis(1));
        failures.failed(lease, new IllegalStateException("x"), "retried");

        assertThat(log.entries).hasSize(12);
        assertThat(log.entries.get(10).message()).isEqualTo(
                "queue q: 6 more handler failure(s) were not logged (at most 10 are per 60 s)");
        assertThat(log.entries.get(10).throwable()).isNull();
        assertThat(log.entries.get(11).throwable()).hasMessage("x");
    }

    @Test
    void closing_the_factory_under_a_running_worker_stops_it_with_one_message_not_as_an_outage() throws Exception {
        harness.log = log;
        harness.publish(Partition.regular("p"), "t1");
        CountDownLatch running = new CountDownLatch(1);
        Worker<String> worker = harness.start((payload, context) -> {
            running.countDown();
            finish.await();
            return Outcome.success();
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        harness.factory.close();
        finish.countDown();

        Eventually.until("the worker stopped by itself", () -> worker.state() == WorkerState.STOPPED);
        assertThat(log.at(Level.ERROR)).singleElement()
                .satisfies(entry -> assertThat(entry.message()).contains("the store was closed under running worker"));
        assertThat(log.at(Level.WARN)).isEmpty();
        assertThat(harness.events.backendDown.get()).as("not an outage").isZero();
        assertThat(worker.health().backendReachable()).isTrue();
    }
}
