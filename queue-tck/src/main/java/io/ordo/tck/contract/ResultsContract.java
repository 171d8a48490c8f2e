package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Completion;
import io.ordo.ports.PublishOutcome;
import io.ordo.tck.fixtures.PartitionFixture;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.ordo.domain.TaskState.COMPLETED;
import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.AckOutcome.LEASE_LOST;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Results kept on request (docs/task-control.md, "Results"): acked tasks kept as completed for a time. */
public abstract class ResultsContract extends ContractContext {
    private static final Duration RETENTION = Duration.ofMinutes(10);

    protected ResultsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private Completion completionOf(String id) {
        return snapshot(id).completion().orElseThrow(() -> new AssertionError(id + " is not completed"));
    }

    @Test
    void without_retention_an_ack_deletes_and_a_result_is_dropped() {
        given(task("acked"), task("completed"));
        consume(workerA(), 2);

        assertThat(store.ack(workerA(), ids("acked"))).containsExactly(entry(id("acked"), ACKED));
        assertThat(store.complete(workerA(), Map.of(id("completed"), bytes("42")))).containsExactly(
                entry(id("completed"), ACKED));

        assertThat(store.get(id("acked"))).isEmpty();
        assertThat(store.get(id("completed"))).isEmpty();
        assertThat(store.stats().completed()).isZero();
        assertThat(store.stats().ackedTotal()).isEqualTo(2);
    }

    @Test
    void with_retention_an_acked_task_is_kept_as_completed_with_its_result() {
        configure(settings -> settings.resultRetention(RETENTION));
        given(task("plain"), task("with-result"));
        consume(workerA(), 2);
        long completedAt = now();

        store.ack(workerA(), ids("plain"));
        assertThat(store.complete(workerA(), Map.of(id("with-result"), bytes("{\"total\":42}"))))
                .containsExactly(entry(id("with-result"), ACKED));

        assertThat(stateOf("with-result")).isEqualTo(COMPLETED);
        assertThat(completionOf("with-result").result()).isEqualTo(bytes("{\"total\":42}"));
        assertThat(completionOf("with-result").completedAt()).isEqualTo(Instant.ofEpochMilli(completedAt));
        assertThat(completionOf("with-result").keptUntil()).isEqualTo(Instant.ofEpochMilli(completedAt + RETENTION.toMillis()));
        assertThat(attemptsOf("with-result")).as("the deliveries, the completing one included").isEqualTo(1);
        assertThat(snapshot("with-result").holder()).isEmpty();
        assertThat(snapshot("with-result").lease()).isEmpty();
        assertThat(completionOf("plain").result()).isEmpty();
        assertThat(store.stats().completed()).isEqualTo(2);
        assertThat(store.stats().inFlight()).isZero();
        assertThat(store.stats().ackedTotal()).isEqualTo(2);
        assertThat(consume(workerB(), 10)).isEmpty();
    }

    @Test
    void a_completed_task_s_id_is_taken_until_it_expires_and_the_maintenance_deletes_it() {
        configure(settings -> settings.resultRetention(RETENTION));
        // One partition, so that "a" is the first task taken on every backend (a sharded queue keeps no order
        // between partitions on different shards).
        given(tasksIn(PartitionFixture.regularPartition(), "a", "b"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("a");
        store.complete(workerA(), Map.of(id("a"), bytes("done")));
        advance(Duration.ofMinutes(5));
        assertThat(consumeIds(workerA(), 1)).containsExactly("b");
        store.ack(workerA(), ids("b"));

        Partition partition = snapshot("a").task().partition(); // (a sharded queue keeps ids apart per partition)
        assertThat(store.publish(List.of(task("a").in(partition).build()))).extracting(receipt -> receipt.outcome())
                .containsExactly(PublishOutcome.DUPLICATE);
        advance(Duration.ofMinutes(5).minusMillis(1));
        assertThat(store.expireCompleted()).isZero();
        advanceMillis(1);
        assertThat(store.expireCompleted()).as("a only: b completed five minutes later").isEqualTo(1);

        assertThat(store.get(id("a"))).isEmpty();
        assertThat(stateOf("b")).isEqualTo(COMPLETED);
        assertThat(store.stats().completed()).isEqualTo(1);
        assertThat(store.publish(List.of(task("a").in(partition).build()))).extracting(receipt -> receipt.outcome())
                .containsExactly(PublishOutcome.CREATED);
    }

    @Test
    void cancel_deletes_a_completed_task() {
        configure(settings -> settings.resultRetention(RETENTION));
        given(task("a"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("a"));

        assertThat(store.cancel(ids("a"))).containsExactly(entry(id("a"), CancelOutcome.CANCELLED));

        assertThat(store.get(id("a"))).isEmpty();
        assertThat(store.stats().completed()).isZero();
    }

    @Test
    void a_result_over_the_limit_is_refused_and_nothing_is_acked() {
        configure(settings -> settings.resultRetention(RETENTION).maxResultBytes(8));
        given(task("small"), task("big"));
        consume(workerA(), 2);
        Map<TaskId, byte[]> results = new LinkedHashMap<>();
        results.put(id("small"), bytes("12345678"));
        results.put(id("big"), bytes("123456789"));

        assertInvalid("results[big]", () -> store.complete(workerA(), results));
        assertInvalid("results", () -> store.complete(workerA(), null));

        assertThat(store.stats().inFlight()).isEqualTo(2);
        assertThat(store.stats().completed()).isZero();
        assertThat(store.complete(workerA(), Map.of(id("small"), bytes("12345678"))))
                .containsExactly(entry(id("small"), ACKED));
    }

    @Test
    void completing_a_task_the_consumer_does_not_hold_changes_nothing() {
        configure(settings -> settings.resultRetention(RETENTION));
        given(task("a"));
        consume(workerA(), 1);

        assertThat(store.complete(workerB(), Map.of(id("a"), bytes("x")))).containsExactly(entry(id("a"), LEASE_LOST));

        assertThat(snapshot("a").holder()).contains(workerA());
        assertThat(store.stats().completed()).isZero();
    }

    @Test
    void retention_settings_out_of_bounds_are_refused_naming_the_field() {
        assertInvalid("resultRetention", () -> QueueSettings.builder().resultRetention(Duration.ofMillis(999)).build());
        assertInvalid("maxResultBytes", () -> QueueSettings.builder().maxResultBytes(0).build());
        assertInvalid("maxResultBytes", () -> QueueSettings.builder().maxResultBytes(QueueSettings.RESULT_LIMIT + 1).build());

        configure(settings -> settings.resultRetention(Duration.ofSeconds(30)).maxResultBytes(100));
        assertThat(store.settings().resultRetention()).isEqualTo(Duration.ofSeconds(30));
        assertThat(store.settings().maxResultBytes()).isEqualTo(100);
    }
}
