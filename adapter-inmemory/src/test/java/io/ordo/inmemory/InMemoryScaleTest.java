package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory store keeps the Redis stores' cost bounds: no consume looks at every partition and no ack
 * at every lease, so draining many partitions, each task held and acked, stays far from quadratic (at
 * 50,000 partitions a quadratic store spends about a minute here; this one a few seconds).
 */
class InMemoryScaleTest {
    private static final int PARTITIONS = 50_000;

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void a_drain_of_many_partitions_with_every_task_held_then_acked_stays_fast() {
        TaskStore store = new InMemoryTaskStoreFactory(new VirtualClock()).forQueue(QueueName.of("scale"));
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            // ordered partitions: each one locked by the consumer until its task is acked
            batch.add(NewTask.builder(Partition.ordered("o-" + i), new byte[8]).id("t-" + i).build());
            if (batch.size() == 10_000) {
                store.publish(batch);
                batch.clear();
            }
        }
        ConsumerId consumer = ConsumerId.of("worker");
        List<Lease> held = new ArrayList<>();
        List<Lease> taken;
        while (!(taken = store.consume(consumer, TaskStore.MAX_CONSUME, Duration.ZERO)).isEmpty()) {
            held.addAll(taken);
        }
        for (int from = 0; from < held.size(); from += TaskStore.MAX_CONSUME) {
            store.ack(consumer, held.subList(from, Math.min(from + TaskStore.MAX_CONSUME, held.size())).stream()
                    .map(Lease::id).toList());
        }

        assertThat(held).hasSize(PARTITIONS);
        assertThat(store.stats().ackedTotal()).isEqualTo(PARTITIONS);
        assertThat(store.stats().lockedPartitions()).isZero();
    }
}
