package io.ordo.tck.contract;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static org.assertj.core.api.Assertions.assertThat;

/** Heartbeats: a consumer stays alive while it beats. */
public abstract class HeartbeatContract extends ContractContext {
    protected HeartbeatContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_heartbeat_registers_a_live_consumer_until_its_ttl_passes() {
        store.heartbeat(workerA(), Duration.ofSeconds(10));

        assertThat(store.stats().liveConsumers()).isEqualTo(1);
        advance(Duration.ofSeconds(10).minusMillis(1));
        assertThat(store.stats().liveConsumers()).isEqualTo(1);
        advanceMillis(1);
        assertThat(store.stats().liveConsumers()).isZero();
    }

    @Test
    void a_heartbeat_keeps_a_consumer_and_its_tasks_alive() {
        configure(s -> s.heartbeatTtl(Duration.ofSeconds(10)));
        given(task("a"));
        consume(workerA(), 1);
        advance(Duration.ofSeconds(8));

        store.heartbeat(workerA(), Duration.ofSeconds(10));

        advance(Duration.ofSeconds(8));
        assertThat(store.reclaim().returned()).isZero();
        assertThat(snapshot("a").holder()).contains(workerA());
        advance(Duration.ofSeconds(2));
        assertThat(store.reclaim().returned()).isEqualTo(1);
    }

    @Test
    void a_heartbeat_sets_the_ttl_even_when_shorter_than_before() {
        store.heartbeat(workerA(), Duration.ofMinutes(10));

        store.heartbeat(workerA(), Duration.ofSeconds(1));

        advance(Duration.ofSeconds(1));
        assertThat(store.stats().liveConsumers()).isZero();
    }

    @Test
    void each_consumer_has_its_own_heartbeat() {
        store.heartbeat(workerA(), Duration.ofSeconds(10));
        store.heartbeat(workerB(), Duration.ofSeconds(20));

        assertThat(store.stats().liveConsumers()).isEqualTo(2);
        advance(Duration.ofSeconds(10));
        assertThat(store.stats().liveConsumers()).isEqualTo(1);
    }
}
