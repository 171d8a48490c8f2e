package io.ordo.tck.contract;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.QueueStats;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Dead letters kept within bounds (docs/semantics.md, "Dead letters kept within bounds"): the count cap deletes
 * the oldest when a task dies, the age cap deletes those that aged out when a task dies and at the reaper's
 * {@code trimDeadLetters}, and the queue counts what they deleted. The tests that depend on death order keep
 * their tasks in one partition, so a sharded queue (which keeps the caps per shard) runs them all.
 */
public abstract class DeadLetterCapsContract extends ContractContext {
    private final Partition partition = regularPartition();

    protected DeadLetterCapsContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** Publishes, takes and fails the tasks one by one, in the order given, in this test's partition. */
    private void deadLetters(String... ids) {
        for (String id : ids) {
            given(task(id, partition));
            assertThat(consumeIds(workerA(), 1)).containsExactly(id);
            assertThat(store.fail(workerA(), ids(id), "reason of " + id)).containsValue(FailOutcome.DEAD_LETTERED);
        }
    }

    private List<String> deadIds() {
        return store.deadLetters(0, 100).items().stream().map(dead -> dead.id().value()).toList();
    }

    @Test
    void without_caps_dead_letters_are_kept_and_a_trim_deletes_nothing() {
        deadLetters("d1", "d2", "d3");
        advance(QueueSettings.MAX_DURATION);

        assertThat(store.trimDeadLetters()).isZero();

        assertThat(deadIds()).containsExactly("d1", "d2", "d3");
        assertThat(store.stats().deadLettersDroppedTotal()).isZero();
    }

    @Test
    void the_caps_are_read_back_and_belong_to_the_queues_settings() {
        QueueSettings capped = store.settings().toBuilder().deadLetterMaxCount(1_000)
                .deadLetterMaxAge(Duration.ofDays(7)).build();

        store.configure(capped);

        assertThat(store.settings()).isEqualTo(capped);
        configure(s -> s.deadLetterMaxCount(0).deadLetterMaxAge(Duration.ZERO));
        assertThat(store.settings().hasDeadLetterCaps()).isFalse();
    }

    @Test
    void bad_caps_are_refused_naming_the_field_and_change_nothing() {
        configure(s -> s.deadLetterMaxCount(5));

        assertInvalid("deadLetterMaxCount", () -> configure(s -> s.deadLetterMaxCount(-1)));
        assertInvalid("deadLetterMaxCount",
                () -> configure(s -> s.deadLetterMaxCount(QueueSettings.MAX_DEAD_LETTER_COUNT + 1)));
        assertInvalid("deadLetterMaxAge", () -> configure(s -> s.deadLetterMaxAge(Duration.ofMillis(-1))));
        assertInvalid("deadLetterMaxAge", () -> configure(s -> s.deadLetterMaxAge(Duration.ofMillis(500))));
        assertInvalid("deadLetterMaxAge",
                () -> configure(s -> s.deadLetterMaxAge(QueueSettings.MAX_DURATION.plusMillis(1))));

        assertThat(store.settings().deadLetterMaxCount()).isEqualTo(5);
        assertThat(store.settings().deadLetterMaxAge()).isZero();
    }

    // ---------------------------------------------------------------- the count cap

    @Test
    void the_count_cap_deletes_the_oldest_as_tasks_die_and_keeps_the_newest() {
        configure(s -> s.deadLetterMaxCount(3));

        deadLetters("d1", "d2", "d3", "d4", "d5");

        assertThat(deadIds()).containsExactly("d3", "d4", "d5");
        assertThat(store.get(id("d1"))).isEmpty();
        assertThat(store.get(id("d2"))).isEmpty();
        assertThat(stateOf("d3")).isEqualTo(DEAD);
        QueueStats stats = store.stats();
        assertThat(stats.dead()).isEqualTo(3);
        assertThat(stats.deadLetteredTotal()).isEqualTo(5);
        assertThat(stats.deadLettersDroppedTotal()).isEqualTo(2);
    }

    @Test
    void one_call_that_kills_more_than_the_cap_keeps_the_last_to_die() {
        configure(s -> s.deadLetterMaxCount(2));
        deadLetters("old");
        given(tasksIn(partition, "a", "b", "c"));
        assertThat(consumeIds(workerA(), 3)).containsExactly("a", "b", "c");

        assertThat(store.fail(workerA(), ids("b", "c", "a"), "broken")).containsOnly(
                entry(id("b"), FailOutcome.DEAD_LETTERED), entry(id("c"), FailOutcome.DEAD_LETTERED),
                entry(id("a"), FailOutcome.DEAD_LETTERED));

        assertThat(deadIds()).as("fail kills in the order named").containsExactly("c", "a");
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(2);
    }

    @Test
    void the_count_cap_holds_when_tasks_die_by_reject_and_by_reclaim() {
        configure(s -> s.deadLetterMaxCount(1).maxAttempts(1));
        given(tasksIn(partition, "rejected", "reclaimed"));
        assertThat(consumeIds(workerA(), 1)).containsExactly("rejected");
        assertThat(store.reject(workerA(), ids("rejected"), Rejection.retryNow("no")))
                .containsExactly(entry(id("rejected"), RejectOutcome.DEAD_LETTERED));
        assertThat(consumeIds(workerB(), 1)).containsExactly("reclaimed");
        advance(DEFAULT_TTL);

        assertThat(store.reclaim().deadLettered()).isEqualTo(1);

        assertThat(deadIds()).containsExactly("reclaimed");
        assertThat(store.get(id("rejected"))).isEmpty();
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(1);
    }

    @Test
    void a_reclaim_that_kills_more_than_the_cap_keeps_the_last_to_die() {
        configure(s -> s.deadLetterMaxCount(1).maxAttempts(1));
        given(tasksIn(partition, "a", "b", "c"));
        assertThat(consumeIds(workerA(), 3)).containsExactly("a", "b", "c");
        advance(DEFAULT_TTL);

        assertThat(store.reclaim().deadLettered()).isEqualTo(3);

        assertThat(deadIds()).as("a dead consumer's tasks die in seq order").containsExactly("c");
        assertThat(store.get(id("a"))).isEmpty();
        assertThat(store.get(id("b"))).isEmpty();
        assertThat(store.stats().dead()).isEqualTo(1);
    }

    @Test
    void a_lowered_count_cap_is_reached_by_the_trim_and_each_death_deletes_a_few_of_the_rest() {
        deadLetters("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9");

        configure(s -> s.deadLetterMaxCount(2));
        assertThat(deadIds()).as("configure deletes nothing").hasSize(9);
        deadLetters("d10");
        assertThat(deadIds()).as("a death deletes at most " + QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH)
                .hasSize(10 - QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH)
                .startsWith("d" + (QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH + 1)).endsWith("d10");

        assertThat(store.trimDeadLetters()).isEqualTo(8 - QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH);

        assertThat(deadIds()).containsExactly("d9", "d10");
        assertThat(store.trimDeadLetters()).isZero();
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(8);
    }

    // ---------------------------------------------------------------- the age cap

    @Test
    void the_trim_deletes_the_dead_letters_that_reached_the_age_cap_oldest_first() {
        configure(s -> s.deadLetterMaxAge(Duration.ofMinutes(1)));
        deadLetters("d1");
        advance(Duration.ofSeconds(20));
        deadLetters("d2");
        advance(Duration.ofSeconds(20));
        deadLetters("d3");

        advance(Duration.ofSeconds(20).minusMillis(1));
        assertThat(store.trimDeadLetters()).as("d1 is a minute old less 1 ms").isZero();
        advanceMillis(1);
        assertThat(store.trimDeadLetters()).as("d1 is a minute old").isEqualTo(1);
        assertThat(deadIds()).containsExactly("d2", "d3");
        advance(Duration.ofSeconds(40));
        assertThat(store.trimDeadLetters()).isEqualTo(2);

        assertThat(deadIds()).isEmpty();
        assertThat(store.get(id("d3"))).isEmpty();
        QueueStats stats = store.stats();
        assertThat(stats.dead()).isZero();
        assertThat(stats.deadLettersDroppedTotal()).isEqualTo(3);
        assertThat(stats.deadLetteredTotal()).isEqualTo(3);
    }

    @Test
    void a_death_deletes_the_dead_letters_that_aged_out_before_it() {
        configure(s -> s.deadLetterMaxAge(Duration.ofMinutes(1)));
        deadLetters("d1", "d2");
        advance(Duration.ofMinutes(1));

        deadLetters("d3");

        assertThat(deadIds()).containsExactly("d3");
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(2);
    }

    @Test
    void the_age_cap_goes_by_when_a_task_died_not_when_it_was_published() {
        configure(s -> s.deadLetterMaxAge(Duration.ofMinutes(1)));
        given(task("old", partition));
        advance(Duration.ofHours(1));
        consume(workerA(), 1);
        store.fail(workerA(), ids("old"), "late");

        assertThat(store.trimDeadLetters()).isZero();

        assertThat(deadIds()).containsExactly("old");
    }

    @Test
    void both_caps_together_delete_what_either_says() {
        configure(s -> s.deadLetterMaxCount(3).deadLetterMaxAge(Duration.ofMinutes(1)));
        deadLetters("d1", "d2");
        advance(Duration.ofSeconds(40));
        deadLetters("d3", "d4");
        assertThat(deadIds()).as("the count cap").containsExactly("d2", "d3", "d4");
        advance(Duration.ofSeconds(20));

        assertThat(store.trimDeadLetters()).as("the age cap").isEqualTo(1);

        assertThat(deadIds()).containsExactly("d3", "d4");
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(2);
    }

    // ---------------------------------------------------------------- nothing else changes

    @Test
    void kept_dead_letters_are_redriven_and_deleted_ones_are_gone_for_good() {
        configure(s -> s.deadLetterMaxCount(2));
        deadLetters("d1", "d2", "d3");
        DeadLetter kept = store.deadLetters(0, 1).items().get(0);

        assertThat(store.redrive(ids("d1", "d2"))).containsExactly(
                entry(id("d1"), RedriveOutcome.UNKNOWN), entry(id("d2"), RedriveOutcome.REDRIVEN));

        assertThat(kept.id()).isEqualTo(id("d2"));
        assertThat(kept.reason()).isEqualTo("reason of d2");
        assertThat(stateOf("d2")).isEqualTo(PENDING);
        assertThat(deadIds()).containsExactly("d3");
        assertThat(store.redriveAll()).isEqualTo(1);
        assertThat(consumeIds(workerB(), 10)).containsExactly("d2", "d3");
        assertThat(store.publish(List.of(task("d1", partition).build()))).as("a deleted id is free again")
                .containsExactly(receipt("d1", CREATED));
        assertThat(store.stats().deadLettersDroppedTotal()).isEqualTo(1);
    }

    @Test
    void purging_is_not_counted_as_dropped_by_the_caps() {
        configure(s -> s.deadLetterMaxCount(10));
        deadLetters("d1", "d2");

        assertThat(store.purgeDeadLetters(ids("d1"))).isEqualTo(1);
        assertThat(store.purgeAllDeadLetters()).isEqualTo(1);

        assertThat(store.stats().deadLettersDroppedTotal()).isZero();
    }
}
