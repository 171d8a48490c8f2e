package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cancelling a task while a worker runs it (docs/decisions/cancelling-running-tasks.md), on the in-memory store
 * and virtual time: the worker hears of it with its next heartbeat, its handler's context says so, a handler
 * still running halfway through the cancel grace is interrupted, one deaf to that is given up at its end and its
 * thread replaced;
 * the task is then given back and the store deletes it.
 */
class CancelRunningTaskTest {
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration JUST_BEFORE = Duration.ofMillis(1);

    private final WorkerHarness harness = new WorkerHarness();
    private final VirtualScheduler scheduler = harness.onVirtualTime();
    private final RecordingLogger log = new RecordingLogger();
    /** Ends the handlers that ignore interrupts, so no thread outlives its test. */
    private final AtomicBoolean letGo = new AtomicBoolean();

    CancelRunningTaskTest() {
        harness.options.heartbeatInterval(HEARTBEAT).cancelGrace(GRACE);
        harness.log = log;
    }

    @AfterEach
    void stop() {
        letGo.set(true);
        harness.close();
    }

    @Test
    void a_handler_that_looks_at_isCancelled_stops_and_its_task_is_deleted_not_retried_nor_dead_lettered() {
        harness.publish(Partition.regular("reports"), "long");
        AtomicInteger polls = new AtomicInteger();
        startAndRunFirstHeartbeat((payload, context) -> {
            while (!context.isCancelled()) {
                polls.incrementAndGet();
                LockSupport.parkNanos(1_000_000);
            }
            return Outcome.success(); // what a handler stopping early says: it is not acked all the same
        });
        Eventually.until("long runs", () -> polls.get() > 0);

        cancel("long");
        scheduler.advance(HEARTBEAT);

        Eventually.until("long is settled", () -> !harness.events.settlementsOf("long").isEmpty());
        assertThat(harness.events.settlementsOf("long")).containsExactly(Settlement.CANCELLED);
        assertThat(harness.events.cancelledRunOf("long")).isEqualTo(CancelledRun.STOPPED);
        assertThat(harness.isGone("long")).isTrue();
        assertThat(harness.store.deadLetters(0, 10).total()).isZero();
        assertThat(harness.store.stats().ackedTotal()).isZero();

        scheduler.advance(Duration.ofSeconds(40)); // heartbeats, reaps, a dead holder's TTL: nothing brings it back
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.started).containsExactly("long");
        assertThat(log.at(Level.WARN)).as("a cancellation is no failure").isEmpty();
    }

    @Test
    void a_handler_still_running_halfway_through_the_grace_is_interrupted() {
        harness.publish(Partition.regular("reports"), "sleeper");
        startAndRunFirstHeartbeat((payload, context) -> {
            new CountDownLatch(1).await(); // does not look at isCancelled; returns only when interrupted
            return Outcome.success();
        });
        Eventually.until("sleeper runs", () -> harness.events.started.contains("sleeper"));

        cancel("sleeper");
        scheduler.advance(HEARTBEAT);
        scheduler.advance(GRACE.dividedBy(2).minus(JUST_BEFORE));
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.settlementsOf("sleeper")).as("within the first half of the grace").isEmpty();

        scheduler.advance(JUST_BEFORE);
        Eventually.until("sleeper is settled", () -> !harness.events.settlementsOf("sleeper").isEmpty());
        assertThat(harness.events.settlementsOf("sleeper")).containsExactly(Settlement.CANCELLED);
        assertThat(harness.events.cancelledRunOf("sleeper")).isEqualTo(CancelledRun.INTERRUPTED);
        assertThat(harness.isGone("sleeper")).isTrue();
        assertThat(log.at(Level.WARN)).as("an interrupt for a cancellation is no failure").isEmpty();
    }

    @Test
    void a_handler_deaf_to_its_interrupt_gives_its_thread_up_at_the_end_of_the_grace_so_other_tasks_run() {
        harness.options.concurrency(1).prefetch(2);
        harness.publish(Partition.regular("reports"), "stubborn");
        harness.publish(Partition.regular("mail"), "next");
        AtomicInteger interruptsIgnored = new AtomicInteger();
        AtomicInteger stubbornReturned = new AtomicInteger();
        startAndRunFirstHeartbeat((payload, context) -> {
            if (payload.equals("stubborn")) {
                while (!letGo.get()) {
                    LockSupport.parkNanos(1_000_000);
                    if (Thread.interrupted()) {
                        interruptsIgnored.incrementAndGet();
                    }
                }
                stubbornReturned.incrementAndGet();
            }
            return Outcome.success();
        });
        Eventually.until("stubborn runs, next waits for the one thread",
                () -> harness.events.started.contains("stubborn") && harness.worker.heldTasks() == 2);

        cancel("stubborn");
        scheduler.advance(HEARTBEAT);
        scheduler.advance(GRACE.dividedBy(2));
        Eventually.until("stubborn is interrupted halfway through the grace", () -> interruptsIgnored.get() > 0);
        scheduler.advance(GRACE.dividedBy(2).minus(JUST_BEFORE));
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.started).as("the one thread is still stubborn's").containsExactly("stubborn");

        scheduler.advance(JUST_BEFORE);
        Eventually.until("next runs on the thread put in place of stubborn's",
                () -> harness.events.settlementsOf("next").contains(Settlement.PROCESSED));
        Eventually.until("stubborn is given back", () -> harness.events.settlementsOf("stubborn").contains(Settlement.CANCELLED));
        assertThat(harness.events.cancelledRunOf("stubborn")).isEqualTo(CancelledRun.ABANDONED);
        assertThat(harness.isGone("stubborn")).isTrue();
        assertThat(harness.store.deadLetters(0, 10).total()).isZero();
        assertThat(stubbornReturned.get()).as("its handler still runs").isZero();

        letGo.set(true);
        Eventually.until("stubborn's handler returns", () -> stubbornReturned.get() == 1);
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.settlementsOf("stubborn")).as("its late success is dropped")
                .containsExactly(Settlement.CANCELLED);
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(1);
    }

    @Test
    void a_task_cancelled_while_waiting_for_a_thread_never_runs() {
        harness.options.concurrency(1).prefetch(2);
        harness.publish(Partition.regular("reports"), "busy");
        harness.publish(Partition.regular("mail"), "waiting");
        CountDownLatch finishBusy = new CountDownLatch(1);
        startAndRunFirstHeartbeat((payload, context) -> {
            finishBusy.await();
            return Outcome.success();
        });
        Eventually.until("busy runs, waiting is held", () -> harness.worker.heldTasks() == 2);

        cancel("waiting");
        scheduler.advance(HEARTBEAT);
        finishBusy.countDown();

        Eventually.until("waiting is settled", () -> !harness.events.settlementsOf("waiting").isEmpty());
        assertThat(harness.events.settlementsOf("waiting")).containsExactly(Settlement.CANCELLED);
        assertThat(harness.events.cancelledRunOf("waiting")).isEqualTo(CancelledRun.NOT_STARTED);
        assertThat(harness.events.started).containsExactly("busy");
        assertThat(harness.isGone("waiting")).isTrue();
    }

    @Test
    void a_success_returned_before_the_worker_heard_of_the_cancellation_is_acked() {
        harness.publish(Partition.regular("reports"), "quick");
        CountDownLatch finish = new CountDownLatch(1);
        AtomicBoolean sawCancelled = new AtomicBoolean();
        startAndRunFirstHeartbeat((payload, context) -> {
            finish.await();
            sawCancelled.set(context.isCancelled());
            return Outcome.success();
        });
        Eventually.until("quick runs", () -> harness.events.started.contains("quick"));

        cancel("quick"); // no heartbeat yet: the worker does not know
        finish.countDown();

        Eventually.until("quick is settled", () -> !harness.events.settlementsOf("quick").isEmpty());
        assertThat(sawCancelled).isFalse();
        assertThat(harness.events.settlementsOf("quick")).containsExactly(Settlement.PROCESSED);
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(1);
        assertThat(harness.events.cancelled).isEmpty();
    }

    @Test
    void an_ordered_partition_goes_on_after_a_cancelled_task_its_rest_returned_uncounted() {
        harness.publish(Partition.ordered("account"), "o1", "o2", "o3");
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        startAndRunFirstHeartbeat((payload, context) -> {
            attempts.put(payload, context.attempt());
            while (payload.equals("o1") && !context.isCancelled()) {
                LockSupport.parkNanos(1_000_000);
            }
            return Outcome.success();
        });
        Eventually.until("o1 runs with its batch held", () -> harness.events.started.contains("o1")
                && harness.worker.heldTasks() == 3);

        cancel("o1");
        scheduler.advance(HEARTBEAT);

        Eventually.until("o2 and o3 are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(harness.events.settlementsOf("o1")).containsExactly(Settlement.CANCELLED);
        assertThat(harness.events.settlementsOf("o2")).containsExactly(Settlement.RETURNED_WITH_BATCH, Settlement.PROCESSED);
        assertThat(harness.events.started).containsExactly("o1", "o2", "o3");
        assertThat(attempts).containsOnly(Map.entry("o1", 1), Map.entry("o2", 1), Map.entry("o3", 1));
        assertThat(harness.isGone("o1")).isTrue();
    }

    /** Starts the worker and runs its first heartbeat and reap, so that the next heartbeat is {@link #HEARTBEAT} away. */
    private void startAndRunFirstHeartbeat(TaskHandler<String> handler) {
        harness.start(handler);
        scheduler.runDue();
    }

    private void cancel(String id) {
        assertThat(harness.store.cancel(List.of(TaskId.of(id))))
                .containsExactly(Map.entry(TaskId.of(id), CancelOutcome.CANCEL_REQUESTED));
    }
}
