package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryTaskStoreFactoryTest {
    private final InMemoryTaskStoreFactory factory = new InMemoryTaskStoreFactory(new VirtualClock());

    @Test
    void known_queues_are_those_holding_data_sorted_by_name() {
        factory.forQueue(QueueName.of("b-tasks")).publish(List.of(NewTask.builder(Partition.of("p"), new byte[0]).build()));
        factory.forQueue(QueueName.of("a-heartbeat")).heartbeat(ConsumerId.of("w"), Duration.ofMinutes(1));
        factory.forQueue(QueueName.of("d-block")).blockPartition(Partition.of("p"), Duration.ofMinutes(1));
        factory.forQueue(QueueName.of("c-settings")).configure(QueueSettings.builder().maxAttempts(9).build());
        TaskStore onlyRead = factory.forQueue(QueueName.of("e-only-read"));
        onlyRead.stats();
        onlyRead.inspect(10);

        assertThat(factory.knownQueues()).containsExactly(QueueName.of("a-heartbeat"), QueueName.of("b-tasks"),
                QueueName.of("c-settings"), QueueName.of("d-block"));
    }

    @Test
    void a_queue_stays_known_after_its_tasks_are_gone_as_its_counters_remain() {
        TaskStore store = factory.forQueue(QueueName.of("drained"));
        store.publish(List.of(NewTask.builder(Partition.of("p"), new byte[0]).build()));
        store.ack(ConsumerId.of("w"), store.consume(ConsumerId.of("w"), 1, Duration.ZERO).stream()
                .map(lease -> lease.id()).toList());

        assertThat(store.stats().ackedTotal()).isEqualTo(1);
        assertThat(factory.knownQueues()).containsExactly(QueueName.of("drained"));
    }

    @Test
    void a_fresh_backend_knows_no_queue() {
        assertThat(factory.knownQueues()).isEmpty();
    }
}
