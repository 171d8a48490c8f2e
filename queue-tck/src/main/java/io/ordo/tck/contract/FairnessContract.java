package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.worker;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Fairness between partitions: priority first, then partitions in turn. */
@RequiresCharacteristic(QUEUE_WIDE_ORDER)
public abstract class FairnessContract extends ContractContext {
    protected FairnessContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void five_equal_partitions_are_served_round_robin() {
        List<Partition> partitions = IntStream.rangeClosed(1, 5).mapToObj(i -> regularPartition()).collect(Collectors.toList());
        for (int p = 1; p <= 5; p++) {
            given(numberedTasksIn(partitions.get(p - 1), "p" + p + "-", 4));
        }

        List<String> expected = new ArrayList<>();
        for (int round = 1; round <= 4; round++) {
            for (int p = 1; p <= 5; p++) {
                expected.add("p" + p + "-" + round);
            }
        }
        assertThat(consumeIds(workerA(), 20)).containsExactlyElementsOf(expected);
    }

    @Test
    void five_equal_partitions_are_served_round_robin_one_consume_at_a_time() {
        for (int p = 1; p <= 5; p++) {
            given(numberedTasksIn(regularPartition(), "p" + p + "-", 3));
        }

        List<String> delivered = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            delivered.addAll(consumeIds(worker("w" + i), 1));
        }

        assertThat(delivered).containsExactly("p1-1", "p2-1", "p3-1", "p4-1", "p5-1", "p1-2", "p2-2", "p3-2",
                "p4-2", "p5-2", "p1-3", "p2-3", "p3-3", "p4-3", "p5-3");
    }

    @Test
    void ordered_partitions_are_served_round_robin_too() {
        for (int p = 1; p <= 3; p++) {
            given(numberedTasksIn(orderedPartition(), "o" + p + "-", 2));
        }

        List<String> delivered = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            List<String> taken = consumeIds(workerA(), 1);
            delivered.addAll(taken);
            store.ack(workerA(), ids(taken));
        }

        assertThat(delivered).containsExactly("o1-1", "o2-1", "o3-1", "o1-2", "o2-2", "o3-2");
    }

    @Test
    void a_heavy_partition_does_not_starve_a_light_one() {
        given(numberedTasksIn(regularPartition(), "heavy-", 100));
        given(task("light"));

        assertThat(consumeIds(workerA(), 1)).containsExactly("heavy-1");
        assertThat(consumeIds(workerA(), 1)).containsExactly("light");
    }

    @Test
    void the_least_recently_served_partition_goes_first() {
        Partition a = regularPartition();
        Partition b = regularPartition();
        given(tasksIn(a, "a1", "a2"));
        given(tasksIn(b, "b1", "b2"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("a1");
        given(task("c1"));

        assertThat(consumeIds(workerA(), 3)).containsExactly("b1", "a2", "c1");
    }

    @Test
    void a_partition_that_empties_and_refills_queues_behind_the_others() {
        Partition a = regularPartition();
        given(task("a1", a), task("b1"), task("c1"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("a1");
        given(task("a2", a));

        assertThat(consumeIds(workerA(), 3)).containsExactly("b1", "c1", "a2");
    }

    @Test
    void the_highest_priority_head_goes_first_across_partitions() {
        given(numberedTasksIn(regularPartition(), "low-", 3));
        given(task("urgent").priority(5));

        assertThat(consumeIds(workerA(), 1)).containsExactly("urgent");
    }

    @Test
    void priority_comes_before_round_robin_across_partitions() {
        Partition a = regularPartition();
        Partition b = regularPartition();
        Partition c = regularPartition();
        given(tasksIn(a, "a1", "a2"));
        given(task("b1", b).priority(5), task("b2", b).priority(5));
        given(task("c1", c));

        assertThat(consumeIds(workerA(), 5)).containsExactly("b1", "b2", "a1", "c1", "a2");
    }

    @Test
    void a_high_priority_task_is_not_starved_by_low_priority_tasks_elsewhere() {
        for (int p = 0; p < 10; p++) {
            given(numberedTasksIn(regularPartition(), "low-" + p + "-", 5));
        }
        consume(workerA(), 7);
        given(task("urgent").priority(1));

        assertThat(consumeIds(workerB(), 1)).containsExactly("urgent");
    }

    @Test
    void a_held_ordered_partition_with_a_high_priority_head_does_not_hold_back_the_others() {
        Partition ordered = orderedPartition();
        given(task("o1", ordered).priority(9), task("o2", ordered).priority(9));
        given(task("r1"));
        consume(workerA(), 1);

        assertThat(consumeIds(workerB(), 10)).containsExactly("r1");
    }
}
