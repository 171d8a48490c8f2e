package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.Schedule;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The worker's reaper fires the queue's schedules (here on virtual time: the reaper runs every 10 s). */
class ScheduleFiringTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final VirtualScheduler scheduler = harness.onVirtualTime();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void a_running_worker_fires_each_slot_of_a_schedule_and_processes_its_task() {
        long start = harness.clock.millis() + 60_000;
        harness.store.putSchedule(Schedule.builder("every-minute", Partition.regular("reports"),
                        "\"tick\"".getBytes(StandardCharsets.UTF_8))
                .every(Duration.ofMinutes(1)).start(Instant.ofEpochMilli(start)).build());
        harness.start((payload, context) -> Outcome.success());

        scheduler.advance(Duration.ofSeconds(50));
        Eventually.holdStill(Duration.ofMillis(50));
        assertThat(harness.events.started).as("before the first slot").isEmpty();

        scheduler.advance(Duration.ofSeconds(80)); // past the slots at +60 s and +120 s
        Eventually.until("both slots are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        // a regular partition: the two tasks may start on two handler threads in either order
        assertThat(harness.events.started).containsExactlyInAnyOrder("every-minute@" + Instant.ofEpochMilli(start),
                "every-minute@" + Instant.ofEpochMilli(start + 60_000));
    }
}
