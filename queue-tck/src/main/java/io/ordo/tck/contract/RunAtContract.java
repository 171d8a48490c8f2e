package io.ordo.tck.contract;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static org.assertj.core.api.Assertions.assertThat;

/** Publishing to run at an instant: due at that instant by the store's clock, at once if it has passed. */
public abstract class RunAtContract extends ContractContext {
    protected RunAtContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_task_to_run_at_an_instant_is_not_delivered_before_it_and_is_at_it() {
        long at = now() + 5_000;
        given(task("report").runAt(Instant.ofEpochMilli(at)));

        assertThat(stateOf("report")).isEqualTo(DELAYED);
        Task stored = snapshot("report").task();
        assertThat(stored.publishedAt()).isEqualTo(now());
        assertThat(stored.dueAt()).isEqualTo(at);
        assertThat(stored.readyAt()).isEqualTo(at);
        advanceMillis(4_999);
        assertThat(consumeIds(workerA(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerA(), 10)).containsExactly("report");
    }

    @Test
    void an_instant_that_has_passed_is_due_at_once() {
        given(task("late").runAt(Instant.ofEpochMilli(now() - 60_000)));

        assertThat(stateOf("late")).isEqualTo(PENDING);
        assertThat(snapshot("late").task().dueAt()).isEqualTo(now());
        assertThat(consumeIds(workerA(), 10)).containsExactly("late");
    }

    @Test
    void an_instant_orders_a_task_as_the_same_delay_would() {
        Partition partition = regularPartition();
        given(task("at-3s", partition).runAt(Instant.ofEpochMilli(now() + 3_000)),
                task("in-2s", partition).delayedBy(Duration.ofSeconds(2)),
                task("at-1s", partition).runAt(Instant.ofEpochMilli(now() + 1_000)));

        advanceMillis(3_000);
        assertThat(consumeIds(workerA(), 1)).containsExactly("at-1s");
        assertThat(consumeIds(workerA(), 1)).containsExactly("in-2s");
        assertThat(consumeIds(workerA(), 1)).containsExactly("at-3s");
    }

    @Test
    void a_delay_and_an_instant_together_are_refused_naming_run_at_and_nothing_is_written() {
        assertInvalid("runAt", () -> store.publish(List.of(NewTask.builder(regularPartition(), new byte[0])
                .delay(Duration.ofSeconds(1)).runAt(Instant.ofEpochMilli(now())).build())));
        assertInvalid("runAt", () -> NewTask.builder(regularPartition(), new byte[0])
                .runAt(NewTask.LATEST_RUN_AT).build());
        assertInvalid("runAt", () -> NewTask.builder(regularPartition(), new byte[0])
                .runAt(Instant.EPOCH.minusMillis(1)).build());
        assertThat(store.stats().publishedTotal()).isZero();
    }
}
