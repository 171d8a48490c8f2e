package io.ordo.tck.contract;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_DEATH_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.orderedPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Dead letters: listing, paging, redriving and purging. */
public abstract class DeadLettersContract extends ContractContext {
    protected DeadLettersContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /**
     * Publishes, takes and fails the tasks one by one, in the order given, all in the same
     * millisecond. Call it while nothing else waits, so each consume takes the task just published.
     */
    private void deadLetters(String... ids) {
        for (String id : ids) {
            given(task(id));
            consume(workerA(), 1);
            assertThat(store.fail(workerA(), ids(id), "reason of " + id)).containsValue(FailOutcome.DEAD_LETTERED);
        }
    }

    @Test
    void dead_letters_are_listed_oldest_first_with_reason_attempts_and_time() {
        configure(s -> s.maxAttempts(1));
        given(task("first"));
        consume(workerA(), 1);
        store.fail(workerA(), ids("first"), "bad payload");
        long firstDiedAt = now();
        advance(Duration.ofSeconds(1));
        given(task("second"));
        consume(workerA(), 1);
        store.reject(workerA(), ids("second"), Rejection.retryNow("gave up"));

        DeadLetterPage page = store.deadLetters(0, 10);

        assertThat(page.total()).isEqualTo(2);
        assertThat(page.offset()).isZero();
        assertThat(page.items()).extracting(dead -> dead.id().value()).containsExactly("first", "second");
        assertThat(page.items()).extracting(DeadLetter::reason).containsExactly("bad payload", "gave up");
        assertThat(page.items()).extracting(DeadLetter::attempts).containsExactly(1, 1);
        assertThat(page.items()).extracting(DeadLetter::deadAt).containsExactly(firstDiedAt, now());
        assertThat(page.items().get(0).task()).isEqualTo(snapshot("first").task());
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_DEATH_ORDER)
    void dead_letters_of_the_same_millisecond_are_listed_in_the_order_they_died() {
        deadLetters("z", "a", "m");

        assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("z", "a", "m");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_DEATH_ORDER)
    void dead_letters_are_paged_by_offset_and_limit() {
        deadLetters("d1", "d2", "d3", "d4", "d5");

        assertThat(store.deadLetters(0, 2).items()).extracting(dead -> dead.id().value()).containsExactly("d1", "d2");
        assertThat(store.deadLetters(2, 2).items()).extracting(dead -> dead.id().value()).containsExactly("d3", "d4");
        DeadLetterPage last = store.deadLetters(4, 2);
        assertThat(last.items()).extracting(dead -> dead.id().value()).containsExactly("d5");
        assertThat(last.total()).isEqualTo(5);
        assertThat(last.offset()).isEqualTo(4);
        DeadLetterPage beyond = store.deadLetters(5, 2);
        assertThat(beyond.items()).isEmpty();
        assertThat(beyond.total()).isEqualTo(5);
    }

    @Test
    void redriving_a_dead_letter_sends_it_back_with_attempts_reset() {
        given(task("a").priority(3));
        consume(workerA(), 1);
        store.fail(workerA(), ids("a"), "downstream was down");
        Task dead = snapshot("a").task();
        advance(Duration.ofMinutes(5));

        assertThat(store.redrive(ids("a"))).containsExactly(entry(id("a"), RedriveOutcome.REDRIVEN));

        TaskSnapshot snapshot = snapshot("a");
        assertThat(snapshot.state()).isEqualTo(PENDING);
        assertThat(snapshot.task().attempts()).isZero();
        assertThat(snapshot.task().dueAt()).isEqualTo(now());
        assertThat(snapshot.task().readyAt()).isEqualTo(now());
        assertThat(snapshot.task().priority()).isEqualTo(dead.priority());
        assertThat(snapshot.task().seq()).isEqualTo(dead.seq());
        assertThat(store.deadLetters(0, 10).total()).isZero();
        assertThat(store.stats().dead()).isZero();
        assertThat(consume(workerB(), 1)).extracting(lease -> lease.task().attempts()).containsExactly(1);
    }

    @Test
    void a_redriven_task_is_due_now_and_queues_behind_tasks_due_earlier() {
        Partition ordered = orderedPartition();
        given(tasksIn(ordered, "o1", "o2"));
        consume(workerA(), 1);
        store.fail(workerA(), ids("o1"), "broken");
        advance(Duration.ofSeconds(1));

        store.redrive(ids("o1"));

        assertThat(consumeIds(workerB(), 10)).containsExactly("o2", "o1");
    }

    @Test
    void redriving_an_id_that_is_not_a_dead_letter_is_unknown() {
        deadLetters("dead");
        given(task("waiting"));

        assertThat(store.redrive(ids("waiting", "nobody", "dead"))).containsExactly(
                entry(id("waiting"), RedriveOutcome.UNKNOWN), entry(id("nobody"), RedriveOutcome.UNKNOWN),
                entry(id("dead"), RedriveOutcome.REDRIVEN));
        assertThat(attemptsOf("waiting")).isZero();
    }

    @Test
    void redrive_all_sends_every_dead_letter_back() {
        deadLetters("d1", "d2", "d3");

        assertThat(store.redriveAll()).isEqualTo(3);

        assertThat(store.deadLetters(0, 10).total()).isZero();
        assertThat(List.of("d1", "d2", "d3")).extracting(this::stateOf).containsOnly(PENDING);
        assertThat(store.redriveAll()).isZero();
    }

    @Test
    void purging_named_dead_letters_deletes_only_those() {
        deadLetters("d1", "d2", "d3");
        given(task("waiting"));

        assertThat(store.purgeDeadLetters(ids("d1", "d3", "waiting", "nobody"))).isEqualTo(2);

        assertThat(store.deadLetters(0, 10).items()).extracting(dead -> dead.id().value()).containsExactly("d2");
        assertThat(store.get(id("d1"))).isEmpty();
        assertThat(stateOf("waiting")).isEqualTo(PENDING);
        assertThat(store.stats().dead()).isEqualTo(1);
    }

    @Test
    void purging_all_deletes_every_dead_letter_for_good() {
        deadLetters("d1", "d2");

        assertThat(store.purgeAllDeadLetters()).isEqualTo(2);

        assertThat(store.deadLetters(0, 10).total()).isZero();
        assertThat(store.get(id("d1"))).isEmpty();
        assertThat(store.stats().dead()).isZero();
        assertThat(store.stats().deadLetteredTotal()).as("a total, not a count").isEqualTo(2);
        assertThat(store.publish(List.of(task("d1").build()))).containsExactly(receipt("d1", CREATED));
    }
}
