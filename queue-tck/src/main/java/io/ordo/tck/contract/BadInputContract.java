package io.ordo.tck.contract;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.IN_FLIGHT;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Bad input is rejected, naming the field, and changes nothing. */
public abstract class BadInputContract extends ContractContext {
    protected BadInputContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void consume_rejects_a_max_out_of_range_and_writes_nothing() {
        given(task("a"));

        assertInvalid("max", () -> store.consume(workerA(), 0, NO_WAIT));
        assertInvalid("max", () -> store.consume(workerA(), -1, NO_WAIT));
        assertInvalid("max", () -> store.consume(workerA(), TaskStore.MAX_CONSUME + 1, NO_WAIT));

        assertThat(stateOf("a")).isEqualTo(PENDING);
        assertThat(store.stats().liveConsumers()).as("not even registered").isZero();
    }

    @Test
    void consume_rejects_a_wait_out_of_range() {
        assertInvalid("wait", () -> store.consume(workerA(), 1, Duration.ofMillis(-1)));
        assertInvalid("wait", () -> store.consume(workerA(), 1, TaskStore.MAX_WAIT.plusMillis(1)));
        assertInvalid("wait", () -> store.consume(workerA(), 1, null));
        assertThat(store.stats().liveConsumers()).isZero();
    }

    @Test
    void consume_rejects_a_missing_consumer() {
        assertInvalid("consumer", () -> store.consume(null, 1, NO_WAIT));
    }

    @Test
    void ack_rejects_missing_ids_and_acks_none_of_a_list_with_a_null() {
        given(task("a"));
        consume(workerA(), 1);

        assertInvalid("ids", () -> store.ack(workerA(), null));
        assertInvalid("ids[1]", () -> store.ack(workerA(), Arrays.asList(id("a"), null)));
        assertInvalid("consumer", () -> store.ack(null, ids("a")));

        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
    }

    @Test
    void ack_rejects_more_than_ten_thousand_ids() {
        List<TaskId> tooMany = IntStream.rangeClosed(1, 10_001).mapToObj(i -> id("t" + i)).collect(Collectors.toList());

        assertInvalid("ids", () -> store.ack(workerA(), tooMany));
    }

    @Test
    void reject_rejects_bad_input_and_returns_nothing() {
        given(task("a"));
        consume(workerA(), 1);

        assertInvalid("rejection", () -> store.reject(workerA(), ids("a"), null));
        assertInvalid("ids[1]", () -> store.reject(workerA(), Arrays.asList(id("a"), null), Rejection.retryNow("no")));
        assertInvalid("ids", () -> store.reject(workerA(), null, Rejection.retryNow("no")));
        assertInvalid("consumer", () -> store.reject(null, ids("a"), Rejection.retryNow("no")));

        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        assertThat(snapshot("a").task().lastError()).isNull();
    }

    @Test
    void fail_rejects_bad_input_and_dead_letters_nothing() {
        given(task("a"));
        consume(workerA(), 1);

        assertInvalid("ids[1]", () -> store.fail(workerA(), Arrays.asList(id("a"), null), "no"));
        assertInvalid("ids", () -> store.fail(workerA(), null, "no"));
        assertInvalid("consumer", () -> store.fail(null, ids("a"), "no"));

        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
        assertThat(store.stats().dead()).isZero();
    }

    @Test
    void release_rejects_bad_input_and_releases_nothing() {
        given(task("a"));
        consume(workerA(), 1);

        assertInvalid("ids[1]", () -> store.release(workerA(), Arrays.asList(id("a"), null)));
        assertInvalid("ids", () -> store.release(workerA(), null));
        assertInvalid("consumer", () -> store.release(null, ids("a")));

        assertThat(stateOf("a")).isEqualTo(IN_FLIGHT);
    }

    @Test
    void block_partition_rejects_bad_input_and_blocks_nothing() {
        Partition partition = regularPartition();

        assertInvalid("duration", () -> store.blockPartition(partition, Duration.ofMillis(-1)));
        assertInvalid("duration", () -> store.blockPartition(partition, Duration.ofDays(366)));
        assertInvalid("duration", () -> store.blockPartition(partition, null));
        assertInvalid("partition", () -> store.blockPartition(null, Duration.ofSeconds(1)));
        assertInvalid("partition", () -> store.unblockPartition(null));

        assertThat(store.stats().blockedPartitions()).isZero();
    }

    @Test
    void heartbeat_rejects_bad_input_and_registers_nobody() {
        assertInvalid("ttl", () -> store.heartbeat(workerA(), Duration.ofMillis(-1)));
        assertInvalid("ttl", () -> store.heartbeat(workerA(), null));
        assertInvalid("consumer", () -> store.heartbeat(null, Duration.ofSeconds(1)));

        assertThat(store.stats().liveConsumers()).isZero();
    }

    @Test
    void cancel_rejects_bad_input_and_cancels_nothing() {
        given(task("a"));

        assertInvalid("ids[1]", () -> store.cancel(Arrays.asList(id("a"), null)));
        assertInvalid("ids", () -> store.cancel(null));

        assertThat(stateOf("a")).isEqualTo(PENDING);
    }

    @Test
    void get_rejects_a_missing_id() {
        assertInvalid("id", () -> store.get(null));
    }

    @Test
    void dead_letter_operations_reject_bad_input_and_change_nothing() {
        given(task("a"));
        consume(workerA(), 1);
        store.fail(workerA(), ids("a"), "broken");

        assertInvalid("offset", () -> store.deadLetters(-1, 10));
        assertInvalid("limit", () -> store.deadLetters(0, -1));
        assertInvalid("ids[1]", () -> store.redrive(Arrays.asList(id("a"), null)));
        assertInvalid("ids", () -> store.redrive(null));
        assertInvalid("ids[1]", () -> store.purgeDeadLetters(Arrays.asList(id("a"), null)));
        assertInvalid("ids", () -> store.purgeDeadLetters(null));

        assertThat(stateOf("a")).isEqualTo(DEAD);
    }

    @Test
    void configure_rejects_missing_settings() {
        assertInvalid("settings", () -> store.configure(null));

        assertThat(store.settings()).isEqualTo(QueueSettings.DEFAULTS);
    }
}
