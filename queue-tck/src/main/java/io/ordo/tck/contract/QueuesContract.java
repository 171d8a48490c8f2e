package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Two queues on one backend never see each other. */
public abstract class QueuesContract extends ContractContext {
    protected QueuesContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void two_queues_never_see_each_others_tasks() {
        TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);
        given(task("shared").payload("mine"));

        assertThat(other.publish(List.of(task("shared").payload("theirs").build())))
                .containsExactly(receipt("shared", CREATED));
        assertThat(other.consume(workerA(), 10, NO_WAIT)).extracting(lease -> new String(lease.task().payload(), StandardCharsets.UTF_8))
                .containsExactly("theirs");
        assertThat(other.ack(workerA(), ids("shared"))).containsExactly(entry(id("shared"), ACKED));

        assertThat(stateOf("shared")).isEqualTo(PENDING);
        assertThat(snapshot("shared").task().payload()).containsExactly("mine".getBytes(StandardCharsets.UTF_8));
        assertThat(store.stats().publishedTotal()).isEqualTo(1);
        assertThat(store.stats().ackedTotal()).isZero();
    }

    @Test
    void pausing_or_blocking_one_queue_leaves_the_other_alone() {
        TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);
        Partition partition = regularPartition();
        given(task("here", partition));
        other.publish(List.of(task("there", partition).build()));

        other.pause();
        other.blockPartition(partition, Duration.ofMinutes(1));

        assertThat(consumeIds(workerA(), 10)).containsExactly("here");
    }
}
