package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.ports.Rejection;
import io.ordo.ports.RejectOutcome;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.payloadOf;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * What a task carries beside its payload (docs/semantics.md, "Task type and a task's own retries"): its
 * type, kept exactly and absent when not given; its own attempts limit, which the store applies in place
 * of the queue's wherever the queue's applies (reject, reclaim); its own backoff, kept for the worker.
 */
public abstract class TaskTypeAndAttemptsContract extends ContractContext {
    private static final RetryPolicy OWN_BACKOFF = new RetryPolicy(Duration.ofMillis(250), 1.5, Duration.ofSeconds(90),
            0.125);

    protected TaskTypeAndAttemptsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    // ------------------------------------------------------------------ type

    @Test
    void the_type_comes_back_exactly_from_get_consume_and_the_dead_letters() {
        given(task("plain").type("deposit"), task("unicode").type("Überweisung 💸 (ü)"));

        assertThat(snapshot("plain").task().type()).isEqualTo("deposit");
        assertThat(snapshot("unicode").task().type()).isEqualTo("Überweisung 💸 (ü)");
        List<Lease> leases = consume(workerA(), 2);
        assertThat(leases).extracting(lease -> lease.task().type())
                .containsExactlyInAnyOrder("deposit", "Überweisung 💸 (ü)");

        store.fail(workerA(), ids("plain"), "poison");
        assertThat(store.deadLetters(0, 10).items()).singleElement()
                .satisfies(dead -> assertThat(dead.task().type()).isEqualTo("deposit"));
    }

    @Test
    void the_type_stays_through_reject_reclaim_and_redrive() {
        given(task("a").type("deposit"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("a"), Rejection.retryNow("again"));
        assertThat(snapshot("a").task().type()).isEqualTo("deposit");

        consume(workerB(), 1);
        letDefaultHeartbeatsExpire();
        store.reclaim();
        assertThat(snapshot("a").task().type()).isEqualTo("deposit");

        consume(workerA(), 1);
        store.fail(workerA(), ids("a"), "poison");
        store.redrive(ids("a"));
        assertThat(consume(workerA(), 1)).singleElement()
                .satisfies(lease -> assertThat(lease.task().type()).isEqualTo("deposit"));
    }

    @Test
    void a_task_published_without_a_type_has_none() {
        given(task("untyped"), task("typed").type("t"));

        assertThat(snapshot("untyped").task().type()).isNull();
        assertThat(snapshot("untyped").task().typeIfAny()).isEmpty();
        assertThat(snapshot("untyped").task().maxAttempts()).isZero();
        assertThat(snapshot("untyped").task().retryPolicy()).isNull();
        assertThat(consume(workerA(), 2)).filteredOn(lease -> lease.id().equals(id("untyped"))).singleElement()
                .satisfies(lease -> assertThat(lease.task().type()).isNull());
    }

    @Test
    void a_bad_type_is_refused_naming_the_field_and_nothing_is_written() {
        for (String bad : List.of("", "a\u0000b", "line\nbreak", "bidi\u202Eoverride", "zero\u200Bwidth", "x".repeat(101),
                "half \uD800 pair")) {
            assertInvalid("type", () -> store.publish(List.of(task("bad").type(bad).build())));
        }
        assertThat(store.get(id("bad"))).isEmpty();
        assertThat(store.stats().publishedTotal()).isZero();
        given(task("longest").type("y".repeat(NewTask.MAX_TYPE_LENGTH)));
        assertThat(snapshot("longest").task().type()).hasSize(NewTask.MAX_TYPE_LENGTH);
    }

    // ------------------------------------------------------------------ a task's own attempts and backoff

    @Test
    void a_task_allowed_two_attempts_on_a_queue_allowing_five_dies_after_two() {
        configure(settings -> settings.maxAttempts(5));
        given(task("a").maxAttempts(2));

        consume(workerA(), 1);
        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("first")))
                .containsExactly(entry(id("a"), RejectOutcome.RETURNED));
        consume(workerA(), 1);
        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("second")))
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));

        assertThat(stateOf("a")).isEqualTo(DEAD);
        assertThat(attemptsOf("a")).isEqualTo(2);
    }

    @Test
    void a_task_allowed_seven_attempts_survives_the_queues_five_and_dies_after_seven() {
        configure(settings -> settings.maxAttempts(5));
        given(task("a").maxAttempts(7), task("b"));

        for (int attempt = 1; attempt <= 5; attempt++) {
            consume(workerA(), 2);
            RejectOutcome queueLimited = attempt < 5 ? RejectOutcome.RETURNED : RejectOutcome.DEAD_LETTERED;
            assertThat(store.reject(workerA(), ids("a", "b"), Rejection.retryNow("again " + attempt)))
                    .as("attempt %d", attempt)
                    .containsExactly(entry(id("a"), RejectOutcome.RETURNED), entry(id("b"), queueLimited));
        }
        assertThat(stateOf("a")).isEqualTo(PENDING);
        consume(workerA(), 1);
        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("sixth"))).containsValue(RejectOutcome.RETURNED);
        consume(workerA(), 1);
        assertThat(store.reject(workerA(), ids("a"), Rejection.retryNow("seventh")))
                .containsExactly(entry(id("a"), RejectOutcome.DEAD_LETTERED));
        assertThat(attemptsOf("a")).isEqualTo(7);
    }

    @Test
    void reclaiming_a_dead_consumers_tasks_counts_against_each_tasks_own_limit() {
        configure(settings -> settings.maxAttempts(5));
        Partition ordered = orderedPartition();
        given(task("once", regularPartition()).maxAttempts(1), task("o1", ordered).maxAttempts(1),
                task("o2", ordered), task("many", regularPartition()).maxAttempts(7));
        assertThat(consume(workerA(), 4)).hasSize(4);
        letDefaultHeartbeatsExpire();

        assertThat(store.reclaim().deadLettered()).isEqualTo(2);

        assertThat(stateOf("once")).isEqualTo(DEAD);
        assertThat(stateOf("o1")).isEqualTo(DEAD);
        assertThat(stateOf("o2")).isEqualTo(PENDING);
        assertThat(stateOf("many")).isEqualTo(PENDING);
        assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.reason())
                .containsOnly("consumer " + workerA().value() + " stopped heartbeating");
    }

    @Test
    void a_processing_timeout_counts_against_the_tasks_own_limit() {
        configure(settings -> settings.maxAttempts(5).processingTimeout(Duration.ofSeconds(2)));
        given(task("a").maxAttempts(1), task("b"));
        consume(workerA(), 2);
        advance(Duration.ofSeconds(2));
        store.heartbeat(workerA(), DEFAULT_TTL);

        assertThat(store.reclaim().timedOut()).isEqualTo(2);

        assertThat(stateOf("a")).isEqualTo(DEAD);
        assertThat(stateOf("b")).isEqualTo(PENDING);
    }

    @Test
    void the_attempts_limit_and_backoff_come_back_from_get_consume_and_the_dead_letters() {
        given(task("a").maxAttempts(3).retryPolicy(OWN_BACKOFF).type("deposit"), task("b").retryPolicy(RetryPolicy.DEFAULT));

        Task a = snapshot("a").task();
        assertThat(a.maxAttempts()).isEqualTo(3);
        assertThat(a.retryPolicy()).isEqualTo(OWN_BACKOFF);
        assertThat(snapshot("b").task().maxAttempts()).isZero();
        assertThat(snapshot("b").task().retryPolicy()).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(consume(workerA(), 2)).extracting(Lease::task).extracting(Task::retryPolicy)
                .containsExactlyInAnyOrder(OWN_BACKOFF, RetryPolicy.DEFAULT);
        store.fail(workerA(), ids("a"), "poison");
        assertThat(store.deadLetters(0, 10).items()).singleElement().satisfies(dead -> {
            assertThat(dead.task().maxAttempts()).isEqualTo(3);
            assertThat(dead.task().retryPolicy()).isEqualTo(OWN_BACKOFF);
            assertThat(dead.task().payload()).isEqualTo(payloadOf("a"));
        });
    }

    @Test
    void an_attempts_limit_outside_one_to_a_thousand_is_refused_and_nothing_is_written() {
        for (int bad : new int[] {-1, 1001, Integer.MAX_VALUE}) {
            assertInvalid("maxAttempts", () -> store.publish(List.of(task("bad").maxAttempts(bad).build())));
        }
        assertThat(store.get(id("bad"))).isEmpty();
        assertThat(store.stats().publishedTotal()).isZero();
        given(task("highest").maxAttempts(1000), task("lowest").maxAttempts(1));
        assertThat(snapshot("highest").task().maxAttempts()).isEqualTo(1000);
        assertThat(snapshot("lowest").task().maxAttempts()).isEqualTo(1);
    }
}
