package io.ordo.system.process;

import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.Schedule;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.testing.RedisServer;
import io.ordo.redis.testing.RedisServerExtension;
import io.ordo.systemtest.OrdoProcess;
import io.ordo.systemtest.RedisClient;
import io.ordo.systemtest.TaskEvents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three {@code ordo work} processes on one queue with a schedule and no leader: every worker's reaper
 * fires the schedule (each second, the queue's heartbeat TTL being 3 s), and every slot's task is
 * published and processed exactly once (docs/semantics.md, "Schedules").
 */
@ExtendWith(RedisServerExtension.class)
@Tag("full")
class ScheduleFiringProcessTest {
    private static final int SLOTS = 12;

    @Test
    void three_workers_fire_a_schedule_and_each_slot_runs_once(RedisServer redis) {
        QueueName queue = QueueName.of("schedule-" + UUID.randomUUID());
        long start = (System.currentTimeMillis() / 1000 + 8) * 1000; // after the workers' start, roughly
        List<String> slots = IntStream.range(0, SLOTS)
                .mapToObj(i -> "tick@" + Instant.ofEpochMilli(start + i * 1000L)).toList();
        try (TaskStoreFactory stores = RedisClient.LETTUCE.open(redis.uri())) {
            TaskStore store = stores.forQueue(queue);
            store.configure(store.settings().toBuilder().heartbeatTtl(Duration.ofSeconds(3)).build());
            store.putSchedule(Schedule.builder("tick", Partition.regular("ticks"), "{}".getBytes(UTF_8))
                    .every(Duration.ofSeconds(1)).misfire(MisfirePolicy.catchUp(100))
                    .start(Instant.ofEpochMilli(start)).end(Instant.ofEpochMilli(start + SLOTS * 1000L)).build());

            List<OrdoProcess> workers = new ArrayList<>();
            try {
                for (RedisClient client : List.of(RedisClient.LETTUCE, RedisClient.JEDIS, RedisClient.LETTUCE)) {
                    workers.add(OrdoProcess.start("work", "--backend", client.backend(), "--redis", redis.uri(),
                            "--queue", queue.value(), "--work-time", "0ms", "--log-tasks"));
                }
                long deadline = System.currentTimeMillis() + 90_000;
                while (processed(workers).size() < SLOTS && System.currentTimeMillis() < deadline) {
                    OrdoProcess.pause(200);
                }
                OrdoProcess.pause(2_500); // a few more reaper ticks of all three, after the last slot
                List<String> processed = processed(workers);
                assertThat(processed).as("every slot once, across the three workers")
                        .containsExactlyInAnyOrderElementsOf(slots);
                assertThat(store.schedules().get(0).lastSlot()).contains(Instant.ofEpochMilli(start + (SLOTS - 1) * 1000L));
            } finally {
                workers.forEach(OrdoProcess::close);
            }
        }
    }

    private static List<String> processed(List<OrdoProcess> workers) {
        List<String> processed = new ArrayList<>();
        workers.forEach(worker -> processed.addAll(TaskEvents.parse(worker.out()).ids("processed")));
        return processed;
    }
}
