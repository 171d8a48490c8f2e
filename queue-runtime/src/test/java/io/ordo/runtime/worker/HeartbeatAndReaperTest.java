package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
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
}
