package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hung handlers and suspects (docs/decisions/hung-handlers.md, poison-isolation.md), on virtual
 * time: the worker gives up on a task held past the processing timeout and replaces its thread;
 * a task whose last holder died runs with nothing else held.
 */
class ProcessingTimeoutTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final VirtualScheduler scheduler = harness.onVirtualTime();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        harness.close();
    }

    /** A hung handler: deaf to interrupts until the test releases it; counts its return. */
    /** Lets the hung first run return: its late outcome must be dropped, hung's settlements stay as they were. */
    private void releaseTheHungRunAndExpectItsOutcomeDropped(AtomicInteger firstRunReturned) {
        release.countDown();
        Eventually.until("the first run returns", () -> firstRunReturned.get() == 1);
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.settlementsOf("hung")).as("the first run's late outcome was dropped")
                .containsExactly(Settlement.TIMED_OUT, Settlement.PROCESSED);
    }

    private void hangUntilReleased(AtomicInteger returned) {
        while (release.getCount() > 0) {
            try {
                release.await();
            } catch (InterruptedException deaf) {
                // a hung handler does not notice
            }
        }
        returned.incrementAndGet();
    }

    @Test
    void a_hung_handler_is_given_up_after_the_timeout_its_thread_replaced_and_its_late_outcome_dropped() {
        // the worker gives up at 5 s; its reaper first runs at 10 s (a third of the default TTL)
        harness.settings(QueueSettings.builder().processingTimeout(Duration.ofSeconds(5)).build());
        harness.options.concurrency(1).prefetch(1);
        harness.publish(Partition.regular("reports"), "hung");
        harness.publish(Partition.regular("mail"), "next");
        AtomicInteger firstRunReturned = new AtomicInteger();
        harness.start((payload, context) -> {
            if (payload.equals("hung") && context.attempt() == 1) {
                hangUntilReleased(firstRunReturned);
            }
            return Outcome.success();
        });
        Eventually.until("hung runs", () -> harness.events.started.contains("hung"));

        scheduler.advance(Duration.ofSeconds(6));
        Eventually.until("next runs on a replacement thread", () -> harness.events.count(Settlement.PROCESSED) == 1);
        assertThat(harness.events.settlementsOf("hung")).containsExactly(Settlement.TIMED_OUT);
        assertThat(harness.events.settlementsOf("next")).containsExactly(Settlement.PROCESSED);

        scheduler.advance(Duration.ofSeconds(5)); // the reaper takes it back, attempt counted; it runs again
        Eventually.until("hung's second run is processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(harness.events.settlementsOf("hung")).containsExactly(Settlement.TIMED_OUT, Settlement.PROCESSED);

        releaseTheHungRunAndExpectItsOutcomeDropped(firstRunReturned);
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(2);
    }

    @Test
    void a_task_handed_out_again_while_its_first_run_still_hangs_here_gives_that_run_up_at_once() {
        harness.settings(QueueSettings.builder().processingTimeout(Duration.ofSeconds(5)).build());
        harness.options.concurrency(1).prefetch(2); // room for the second delivery while the first run hangs
        harness.publish(Partition.regular("reports"), "hung");
        AtomicInteger firstRunReturned = new AtomicInteger();
        harness.start((payload, context) -> {
            if (context.attempt() == 1) {
                hangUntilReleased(firstRunReturned);
            }
            return Outcome.success();
        });
        Eventually.until("hung runs", () -> harness.events.started.contains("hung"));

        // the store's clock passes the timeout and a reaper takes the task back before this worker's own
        // timeout watch looks (it runs on the scheduler, which has not moved): the task comes back to it
        harness.clock.advanceMillis(6_000);
        assertThat(harness.store.reclaim().timedOut()).isEqualTo(1);

        Eventually.until("the second run is processed on a replacement thread",
                () -> harness.events.count(Settlement.PROCESSED) == 1);
        assertThat(harness.events.settlementsOf("hung")).containsExactly(Settlement.TIMED_OUT, Settlement.PROCESSED);

        releaseTheHungRunAndExpectItsOutcomeDropped(firstRunReturned);
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(1);
    }

    @Test
    void a_tasks_own_timeout_replaces_the_queues_for_the_worker_too() {
        harness.settings(QueueSettings.builder().processingTimeout(Duration.ofSeconds(5)).build());
        harness.options.concurrency(2).prefetch(2);
        harness.publishWithTimeout(Partition.regular("reports"), "long", Duration.ofSeconds(20));
        harness.publishWithTimeout(Partition.regular("mail"), "short", Duration.ofSeconds(2));
        AtomicInteger returned = new AtomicInteger();
        harness.start((payload, context) -> {
            hangUntilReleased(returned);
            return Outcome.success();
        });
        Eventually.until("both run", () -> harness.events.started.size() == 2);

        scheduler.advance(Duration.ofSeconds(3)); // past short's own 2 s, within the queue's 5 s
        Eventually.until("short is given up", () -> harness.events.settlementsOf("short").contains(Settlement.TIMED_OUT));
        scheduler.advance(Duration.ofSeconds(4)); // past the queue's 5 s, within long's own 20 s
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.settlementsOf("long")).as("long keeps its lease past the queue's timeout").isEmpty();

        release.countDown();
        Eventually.until("long is processed", () -> harness.events.settlementsOf("long").contains(Settlement.PROCESSED));
        assertThat(harness.events.settlementsOf("short")).containsExactly(Settlement.TIMED_OUT);
    }

    @Test
    void tasks_whose_holder_died_run_one_at_a_time_with_nothing_else_held_and_their_returns_cost_no_attempt() {
        harness.options.concurrency(4).prefetch(8);
        harness.publish(Partition.regular("a"), "a1");
        harness.publish(Partition.regular("b"), "b1");
        harness.publish(Partition.ordered("c"), "c1", "c2");
        List<Lease> lost = harness.store.consume(ConsumerId.of("crashed-worker"), 10, Duration.ZERO);
        assertThat(lost).hasSize(4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        harness.start((payload, context) -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            attempts.put(payload, context.attempt());
            Thread.sleep(5);
            running.decrementAndGet();
            return Outcome.success();
        });

        scheduler.advance(Duration.ofSeconds(30)); // crashed-worker expires; the reaper returns its four tasks
        Eventually.until("all four are processed", () -> harness.events.count(Settlement.PROCESSED) == 4);

        assertThat(mostAtOnce.get()).as("handlers running at once").isEqualTo(1);
        assertThat(attempts).as("one attempt for the crash, one for the run; none for being sent back")
                .containsOnly(Map.entry("a1", 2), Map.entry("b1", 2), Map.entry("c1", 2), Map.entry("c2", 2));
        assertThat(harness.events.started).containsSubsequence("c1", "c2");
    }
}
