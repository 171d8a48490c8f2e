package io.ordo.tck.contract;

import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Pausing and resuming a queue. */
public abstract class PauseResumeContract extends ContractContext {
    protected PauseResumeContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_paused_queue_delivers_nothing_but_accepts_publishes() {
        given(task("before"));

        store.pause();

        assertThat(store.publish(List.of(task("during").build()))).containsExactly(receipt("during", CREATED));
        assertThat(consume(workerA(), 10)).isEmpty();
        assertThat(store.stats().ready()).isEqualTo(2);
    }

    @Test
    void resume_delivers_again() {
        given(task("a"));
        store.pause();

        store.resume();

        assertThat(consumeIds(workerA(), 10)).containsExactly("a");
    }

    @Test
    void pausing_leaves_tasks_in_flight_with_their_consumers() {
        given(task("a"), task("b"));
        consume(workerA(), 2);

        store.pause();

        assertThat(store.ack(workerA(), ids("a"))).containsExactly(entry(id("a"), ACKED));
        assertThat(store.reject(workerA(), ids("b"), Rejection.retryNow("later"))).containsExactly(entry(id("b"), RETURNED));
        assertThat(consume(workerA(), 10)).isEmpty();
    }

    @Test
    void pausing_twice_needs_one_resume() {
        given(task("a"));
        store.pause();
        store.pause();

        store.resume();

        assertThat(consumeIds(workerA(), 10)).containsExactly("a");
    }
}
