package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.domain.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** The backend goes away and comes back: backoff with jitter, two state changes, nothing lost or done twice. */
class BackendOutageTest {
    private final WorkerHarness harness = new WorkerHarness(FaultyTaskStore::new);
    private final FaultyTaskStore store = (FaultyTaskStore) harness.store;
    private final CountDownLatch finish = new CountDownLatch(1);
    private final VirtualScheduler scheduler = harness.onVirtualTime();

    @BeforeEach
    void seeded() {
        harness.random = RandomGeneratorFactory.of("L64X128MixRandom").create(7);
    }

    @AfterEach
    void stop() {
        finish.countDown();
        store.comeBack();
        harness.close();
    }

    @Test
    void fetches_back_off_exponentially_with_jitter_exactly_and_resume_when_the_backend_returns() throws Exception {
        RandomGenerator replay = RandomGeneratorFactory.of("L64X128MixRandom").create(7);
        RetryPolicy backoff = WorkerOptions.DEFAULT_OUTAGE_BACKOFF;
        store.goDown();
        long start = harness.clock.millis();
        Worker<String> worker = harness.start((payload, context) -> Outcome.success());

        List<Long> expectedTimes = new ArrayList<>(List.of(start));
        List<Duration> expectedDelays = new ArrayList<>();
        for (int failures = 1; failures <= 6; failures++) {
            Duration delay = backoff.delayAfter(failures, replay);
            expectedDelays.add(delay);
            long due = expectedTimes.get(expectedTimes.size() - 1) + delay.toMillis();
            scheduler.awaitJobDueAt(due);
            assertThat(worker.health().ready()).isFalse();
            assertThat(worker.health().live()).isTrue();
            if (failures == 6) {
                store.comeBack();
            }
            scheduler.advance(delay);
            expectedTimes.add(due);
            int attempts = failures + 1;
            Eventually.until("fetch attempt " + attempts, () -> store.consumeAttempts().size() >= attempts);
        }
        harness.publish(Partition.regular("emails"), "after");
        Eventually.until("the task published after the outage is processed",
                () -> harness.events.count(Settlement.PROCESSED) == 1);

        assertThat(store.consumeAttempts().subList(0, 7)).containsExactlyElementsOf(expectedTimes);
        assertThat(harness.events.fetchRetries).containsExactlyElementsOf(expectedDelays);
        assertThat(expectedDelays.get(5)).as("the pauses grow").isGreaterThan(expectedDelays.get(0));
        assertThat(harness.events.backendDown.get()).as("one report when the outage began").isEqualTo(1);
        assertThat(harness.events.backendUp.get()).as("one report when it ended").isEqualTo(1);
        assertThat(worker.health().ready()).isTrue();
    }

    @Test
    void an_ack_that_fails_in_an_outage_is_sent_again_afterwards_and_the_task_runs_once() {
        harness.publish(Partition.regular("emails"), "m1");
        harness.start((payload, context) -> {
            finish.await();
            return Outcome.success();
        });
        Eventually.until("m1 runs", () -> harness.events.started.contains("m1"));

        store.goDown();
        finish.countDown();
        Eventually.until("the outage is noticed", () -> harness.events.backendDown.get() == 1);
        scheduler.advance(Duration.ofSeconds(2));
        assertThat(harness.events.count(Settlement.PROCESSED)).isZero();
        store.comeBack();

        Eventually.until("m1 is acked", () -> {
            scheduler.advance(Duration.ofMillis(500)); // the ack's retry sleeps on virtual time
            return harness.events.count(Settlement.PROCESSED) == 1;
        });
        assertThat(harness.isGone("m1")).isTrue();
        assertThat(harness.events.started).containsExactly("m1");
    }

    @Test
    void an_ack_whose_answer_was_lost_is_refused_when_sent_again_and_the_task_still_counts_as_processed() {
        harness.publish(Partition.regular("emails"), "m1");
        store.loseNextAckAnswer();

        harness.start((payload, context) -> Outcome.success());

        Eventually.until("m1 is settled", () -> {
            scheduler.advance(Duration.ofMillis(500)); // the ack's retry sleeps on virtual time
            return !harness.events.settlementsOf("m1").isEmpty();
        });
        assertThat(harness.events.settlementsOf("m1")).containsExactly(Settlement.PROCESSED);
        assertThat(harness.store.stats().ackedTotal()).isEqualTo(1);
    }

    @Test
    void a_task_leased_by_a_fetch_whose_answer_was_lost_comes_back_through_the_reaper_and_runs_once() {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        long start = harness.clock.millis();
        store.loseNextConsumeAnswer();
        Worker<String> worker = harness.start((payload, context) -> {
            attempts.add(context.attempt());
            return Outcome.success();
        });
        harness.publish(Partition.ordered("account-42"), "t1");
        Eventually.until("the fetch failed", () -> harness.events.fetchRetries.size() == 1);

        // a second at a time, so the worker's heartbeats keep its new name alive while worker-1 expires
        Eventually.until("t1 is processed", () -> {
            scheduler.advance(Duration.ofSeconds(1));
            return harness.events.count(Settlement.PROCESSED) == 1;
        });
        assertThat(harness.clock.millis()).isGreaterThanOrEqualTo(start + 30_000);
        assertThat(attempts).as("ran once; the lost delivery counts as an attempt").containsExactly(2);
        assertThat(worker.consumer()).isEqualTo(ConsumerId.of("worker-1~2"));
        assertThat(store.consumers()).endsWith(ConsumerId.of("worker-1~2"));
    }
}
