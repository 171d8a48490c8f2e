package io.ordo.tck.contract;

import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.PublishOutcome.DUPLICATE;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_IDS;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.TaskFixture.anyTask;
import static io.ordo.tck.fixtures.TaskFixture.payloadOfSize;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Queue settings: read back, per queue, and when they take effect. */
public abstract class SettingsContract extends ContractContext {
    protected SettingsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_new_queue_has_the_default_settings() {
        assertThat(store.settings()).isEqualTo(QueueSettings.DEFAULTS);
    }

    @Test
    void configured_settings_are_read_back() {
        QueueSettings custom = QueueSettings.builder().maxAttempts(9).processingTimeout(Duration.ofMinutes(2))
                .dedupWindow(Duration.ofHours(1)).heartbeatTtl(Duration.ofSeconds(7)).maxPayloadBytes(4096).build();

        store.configure(custom);

        assertThat(store.settings()).isEqualTo(custom);
    }

    @Test
    void settings_belong_to_one_queue() {
        store.configure(QueueSettings.builder().maxAttempts(2).build());

        TaskStore other = createStore(QueueName.of(queue.value() + "-other"), clock);

        assertThat(other.settings()).isEqualTo(QueueSettings.DEFAULTS);
    }

    @Test
    void a_lower_max_attempts_takes_effect_at_the_next_reject() {
        given(task("a"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("a"), Rejection.retryNow("no"));
        consume(workerA(), 1);

        configure(s -> s.maxAttempts(2));

        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("no")))
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_IDS)
    void a_dedup_window_makes_a_republished_acked_id_a_duplicate_while_it_lasts() {
        configure(s -> s.dedupWindow(Duration.ofSeconds(60)));
        given(task("a"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("a"));

        advance(Duration.ofSeconds(60).minusMillis(1));
        assertThat(store.publish(List.of(task("a").build()))).containsExactly(receipt("a", DUPLICATE));
        assertThat(store.get(id("a"))).as("remembered, not kept").isEmpty();
        advanceMillis(1);
        assertThat(store.publish(List.of(task("a").build()))).containsExactly(receipt("a", CREATED));
    }

    @Test
    void a_smaller_payload_limit_takes_effect_at_the_next_publish() {
        configure(s -> s.maxPayloadBytes(10));

        assertInvalid("tasks[0].payload", () -> store.publish(List.of(anyTask().payload(payloadOfSize(11)).build())));
        assertThat(store.stats().publishedTotal()).isZero();
    }

    @Test
    void a_shorter_heartbeat_ttl_takes_effect_at_the_next_consume() {
        configure(s -> s.heartbeatTtl(Duration.ofSeconds(5)));
        given(task("a"));
        consume(workerA(), 1);
        advance(Duration.ofSeconds(5));

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(workerA()), 1, 0, 0));
    }

    @Test
    void a_processing_timeout_set_later_applies_to_tasks_already_in_flight() {
        given(task("a"));
        consume(workerA(), 1);
        store.heartbeat(workerA(), Duration.ofMinutes(10));
        advance(Duration.ofSeconds(20));

        configure(s -> s.processingTimeout(Duration.ofSeconds(10)));

        assertThat(store.reclaim()).isEqualTo(new ReclaimReport(List.of(), 1, 0, 1));
    }
}
