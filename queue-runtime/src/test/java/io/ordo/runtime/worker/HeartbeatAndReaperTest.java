package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/** Heartbeats and the reaper run on the scheduler, here on virtual time (queue heartbeat TTL: 30 s). */
class HeartbeatAndReaperTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final CountDownLatch finish = new CountDownLatch(1);
    private final VirtualScheduler scheduler = harness.onVirtualTime();

    @AfterEach
    void stop() {
        finish.countDown();
        harness.close();
    }

    @Test
    void heartbeats_every_third_of_the_ttl_keep_a_long_task_in_this_workers_hands() {
        harness.publish(Partition.regular("reports"), "long");
        harness.start((payload, context) -> {
            finish.await();
            return Outcome.success();
        });
        Eventually.until("long runs", () -> harness.events.started.contains("long"));
        long start = harness.clock.millis();

        scheduler.advance(Duration.ofSeconds(95));

        TaskSnapshot snapshot = harness.get("long");
        assertThat(snapshot.state()).isEqualTo(TaskState.IN_FLIGHT);
        assertThat(snapshot.holder()).contains(WorkerHarness.CONSUMER);
        assertThat(harness.store.stats().liveConsumers()).isEqualTo(1);
        assertThat(scheduler.pendingDueTimes()).as("the next heartbeat and reap, 10 s apart")
                .contains(start + 100_000);
        finish.countDown();
        Eventually.until("long is processed", () -> harness.isGone("long"));
    }

    @Test
    void the_reaper_returns_the_tasks_of_a_consumer_that_stopped_heartbeating() {
        harness.publish(Partition.ordered("account-42"), "t1", "t2");
        List<Lease> crashed = harness.store.consume(ConsumerId.of("crashed-worker"), 10, Duration.ZERO);
        assertThat(crashed).hasSize(2);
        harness.start((payload, context) -> Outcome.success());

        scheduler.advance(Duration.ofSeconds(29));
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.started).as("the crashed worker is not dead yet").isEmpty();

        scheduler.advance(Duration.ofSeconds(1));
        Eventually.until("both are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(harness.events.started).containsExactly("t1", "t2");
        assertThat(harness.store.get(TaskId.of("t1"))).isEmpty();
    }

    @Test
    void the_reaper_deletes_the_dead_letters_past_the_queues_age_cap() {
        harness.store.configure(QueueSettings.builder().deadLetterMaxAge(Duration.ofMinutes(1)).build());
        harness.publish(Partition.regular("reports"), "old", "young");
        ConsumerId operator = ConsumerId.of("operator");
        harness.store.consume(operator, 1, Duration.ZERO);
        harness.store.fail(operator, List.of(TaskId.of("old")), "broken");
        harness.clock.advance(Duration.ofSeconds(45));
        harness.store.consume(operator, 1, Duration.ZERO);
        harness.store.fail(operator, List.of(TaskId.of("young")), "broken");
        harness.start((payload, context) -> Outcome.success());
        assertThat(harness.store.stats().dead()).as("the reaper's first run, at start: none a minute old").isEqualTo(2);

        scheduler.advance(Duration.ofSeconds(20)); // two more runs: old is a minute old by the second

        Eventually.until("old is deleted", () -> harness.store.get(TaskId.of("old")).isEmpty());
        assertThat(harness.get("young").state()).isEqualTo(TaskState.DEAD);
        assertThat(harness.store.stats().deadLettersDroppedTotal()).isEqualTo(1);
    }

    @Test
    void the_reaper_deletes_the_completed_tasks_past_the_result_retention() {
        harness.store.configure(QueueSettings.builder().resultRetention(Duration.ofMinutes(1)).build());
        harness.publish(Partition.regular("reports"), "old", "young");
        ConsumerId operator = ConsumerId.of("operator");
        harness.store.consume(operator, 1, Duration.ZERO);
        harness.store.ack(operator, List.of(TaskId.of("old")));
        harness.clock.advance(Duration.ofSeconds(45));
        harness.store.consume(operator, 1, Duration.ZERO);
        harness.store.ack(operator, List.of(TaskId.of("young")));
        harness.start((payload, context) -> Outcome.success());
        assertThat(harness.store.stats().completed()).as("the reaper's first run, at start: none a minute old").isEqualTo(2);

        scheduler.advance(Duration.ofSeconds(20)); // two more runs: old was kept a minute by the second

        Eventually.until("old is deleted", () -> harness.store.get(TaskId.of("old")).isEmpty());
        assertThat(harness.get("young").state()).isEqualTo(TaskState.COMPLETED);
    }
}
