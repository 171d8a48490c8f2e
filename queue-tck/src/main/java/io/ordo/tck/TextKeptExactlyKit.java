package io.ordo.tck;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.DeadLetter;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * User text is kept exactly or refused (docs/semantics.md, "Text"): every id, partition code,
 * consumer name, header and reason a store accepts comes back bit for bit; text no store could keep
 * (an unpaired surrogate) and names that would display as something else are refused when built,
 * so nothing is written; long reasons are cut between characters, the same way on every backend.
 * A backend's test extends this class and supplies {@link #createStore}, as for the main kit.
 */
public abstract class TextKeptExactlyKit {
    private static final String EMOJI = "\uD83D\uDE00";
    private static final String HIGH = "\uD83D";
    private static final String LOW = "\uDE00";
    private static final Duration NO_WAIT = Duration.ZERO;

    /** Valid names from every plane and of every width in UTF-8, at the length limit too. */
    private static final List<String> EXACT_NAMES = List.of(
            "a", "\u00e4", "a\u0308", "\u00a0", "\u20ac", "\u65e5\u672c\u8a9e", "\uff41", "\ufffd", "\ufffe", "\uffff",
            EMOJI, "\uD800\uDC00", "\uDBFF\uDFFF", "\uDB40\uDD00" /* variation selector 17 */, "?", "a?", "??",
            "\uD834\uDD1E\u00e9\u0301", "x".repeat(199) + EMOJI, EMOJI.repeat(200));

    /** Characters that change how a name displays: refused in ids, codes and consumer names. */
    private static final Map<String, String> MISLEADING = new LinkedHashMap<>();

    static {
        MISLEADING.put("right-to-left override", "\u202e");
        MISLEADING.put("left-to-right override", "\u202d");
        MISLEADING.put("right-to-left embedding", "\u202b");
        MISLEADING.put("pop directional formatting", "\u202c");
        MISLEADING.put("first strong isolate", "\u2068");
        MISLEADING.put("right-to-left isolate", "\u2067");
        MISLEADING.put("pop directional isolate", "\u2069");
        MISLEADING.put("left-to-right mark", "\u200e");
        MISLEADING.put("arabic letter mark", "\u061c");
        MISLEADING.put("zero width space", "\u200b");
        MISLEADING.put("zero width joiner", "\u200d");
        MISLEADING.put("word joiner", "\u2060");
        MISLEADING.put("byte order mark", "\ufeff");
        MISLEADING.put("soft hyphen", "\u00ad");
        MISLEADING.put("language tag", "\uDB40\uDC01");
        MISLEADING.put("line separator", "\u2028");
        MISLEADING.put("paragraph separator", "\u2029");
        MISLEADING.put("next line (C1 control)", "\u0085");
        MISLEADING.put("escape", "\u001b");
        MISLEADING.put("carriage return", "\r");
    }

    /** Strings that are not Unicode text: no UTF-8 form exists for them. */
    private static final List<String> NOT_TEXT = List.of(HIGH, LOW, "a" + HIGH, HIGH + "a", LOW + HIGH, "a" + LOW + "b",
            EMOJI + HIGH);

    private VirtualClock clock;
    private TaskStore store;

    /** A store serving {@code queue} that reads the time from {@code clock}; called before every test. */
    protected abstract TaskStore createStore(QueueName queue, VirtualClock clock);

    @BeforeEach
    void startOnAFreshQueue() {
        clock = new VirtualClock();
        store = createStore(QueueName.of("tck-text-" + UUID.randomUUID()), clock);
    }

    // ------------------------------------------------------------------------------ round trips

    @Test
    void ids_partition_codes_headers_and_consumer_names_come_back_bit_for_bit() {
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < EXACT_NAMES.size(); i++) {
            String name = EXACT_NAMES.get(i);
            Partition partition = i % 2 == 0 ? Partition.regular(name)
                    : name.codePointCount(0, name.length()) < Partition.MAX_LENGTH ? Partition.ordered(name)
                    : Partition.regular(name);
            tasks.add(NewTask.builder(partition, new byte[] {(byte) i}).id(TaskId.of(name))
                    .header(name.codePointCount(0, name.length()) <= NewTask.MAX_HEADER_NAME_LENGTH ? name : "long", name)
                    .header("every plane", "\u0000\t\n\r\u007f\u0085\u2028" + EMOJI + "\uDBFF\uDFFF\u202e" + name)
                    .build());
        }

        assertThat(store.publish(tasks)).extracting(PublishReceipt::outcome).containsOnly(PublishOutcome.CREATED);

        for (NewTask published : tasks) {
            TaskSnapshot snapshot = store.get(published.id()).orElseThrow();
            assertThat(snapshot.task().id().value()).as("id").isEqualTo(published.id().value());
            assertThat(snapshot.task().partition()).as("partition of %s", published.id()).isEqualTo(published.partition());
            assertThat(snapshot.task().headers()).as("headers of %s", published.id()).isEqualTo(published.headers());
        }
        List<String> consumed = new ArrayList<>();
        for (String name : EXACT_NAMES) {
            ConsumerId consumer = ConsumerId.of(name);
            List<Lease> leases = store.consume(consumer, 1, NO_WAIT);
            assertThat(leases).as("a task for consumer %s", name).hasSize(1);
            Lease lease = leases.get(0);
            assertThat(store.get(lease.id()).orElseThrow().holder()).as("holder").contains(consumer);
            consumed.add(lease.id().value());
        }
        assertThat(consumed).containsExactlyInAnyOrderElementsOf(EXACT_NAMES);
    }

    @Test
    void reasons_keep_every_character_including_line_breaks_and_controls() {
        String reason = "java.lang.IllegalStateException: \u00e4 " + EMOJI + " \u202e\n\tat x(Y.java:1)\r\n\u0000\u2028?";
        publish("task", Partition.regular("p"));
        ConsumerId consumer = ConsumerId.of("worker");
        store.consume(consumer, 1, NO_WAIT);

        store.reject(consumer, List.of(TaskId.of("task")), Rejection.retryNow(reason));
        assertThat(store.get(TaskId.of("task")).orElseThrow().task().lastError()).isEqualTo(reason);

        store.consume(consumer, 1, NO_WAIT);
        assertThat(store.fail(consumer, List.of(TaskId.of("task")), reason + "!"))
                .containsEntry(TaskId.of("task"), FailOutcome.DEAD_LETTERED);
        DeadLetter letter = store.deadLetters(0, 10).items().get(0);
        assertThat(letter.reason()).isEqualTo(reason + "!");
        assertThat(letter.task().lastError()).isEqualTo(reason + "!");
    }

    // ------------------------------------------------------------------------------ truncation

    @Test
    void a_long_reason_is_cut_between_characters_the_same_way_on_every_backend() {
        int max = Rejection.MAX_REASON_LENGTH;
        // the cut falls right after a surrogate pair's first half if characters are counted as UTF-16 units
        String reason = "x".repeat(max - 2) + EMOJI.repeat(5);
        String expected = "x".repeat(max - 2) + EMOJI + "\u2026";
        publish("rejected", Partition.regular("p"));
        publish("failed", Partition.regular("q"));
        ConsumerId consumer = ConsumerId.of("worker");
        assertThat(store.consume(consumer, 2, NO_WAIT)).hasSize(2);

        store.reject(consumer, List.of(TaskId.of("rejected")), Rejection.retryNow(reason));
        store.fail(consumer, List.of(TaskId.of("failed")), reason);

        String kept = store.get(TaskId.of("rejected")).orElseThrow().task().lastError();
        assertThat(kept).isEqualTo(expected);
        assertThat(kept.codePointCount(0, kept.length())).isEqualTo(max);
        assertThat(store.deadLetters(0, 10).items()).extracting(DeadLetter::reason).containsExactly(expected);
    }

    @Test
    void a_reason_of_exactly_the_limit_is_kept_whole() {
        String reason = EMOJI.repeat(Rejection.MAX_REASON_LENGTH);
        publish("task", Partition.regular("p"));
        ConsumerId consumer = ConsumerId.of("worker");
        store.consume(consumer, 1, NO_WAIT);

        store.fail(consumer, List.of(TaskId.of("task")), reason);

        assertThat(store.deadLetters(0, 10).items()).extracting(DeadLetter::reason).containsExactly(reason);
    }

    // ------------------------------------------------------------------------------ refusals

    @Test
    void text_without_a_utf8_form_is_refused_in_every_field_naming_it() {
        for (String bad : NOT_TEXT) {
            assertInvalid("id", () -> TaskId.of("id" + bad));
            assertInvalid("partition", () -> Partition.regular("p" + bad));
            assertInvalid("partition", () -> Partition.ordered("p" + bad));
            assertInvalid("partition", () -> Partition.of("!p" + bad));
            assertInvalid("consumer", () -> ConsumerId.of("c" + bad));
            assertInvalid("queue", () -> QueueName.of("q" + bad));
            assertInvalid("headers.name", () -> NewTask.builder(Partition.regular("p"), new byte[0])
                    .header("h" + bad, "v").build());
            assertInvalid("headers[h]", () -> NewTask.builder(Partition.regular("p"), new byte[0])
                    .header("h", "v" + bad).build());
            assertInvalid("reason", () -> Rejection.retryNow("r" + bad));
            assertInvalid("reason", () -> Rejection.rateLimited(Duration.ofSeconds(1), bad));
        }
    }

    @Test
    void a_distinct_id_is_never_taken_for_one_that_a_lossy_encoding_would_make_of_it() {
        publish("a?", Partition.regular("p"));

        assertInvalid("id", () -> TaskId.of("a" + HIGH));
        assertInvalid("id", () -> TaskId.of("a" + LOW));

        assertThat(store.get(TaskId.of("a?"))).map(TaskSnapshot::state).contains(TaskState.PENDING);
        assertThat(store.stats().ready()).isEqualTo(1);
    }

    @Test
    void a_fail_with_a_reason_that_has_no_utf8_form_is_refused_and_changes_nothing() {
        publish("task", Partition.ordered("account"));
        ConsumerId consumer = ConsumerId.of("worker");
        store.consume(consumer, 1, NO_WAIT);

        assertInvalid("reason", () -> store.fail(consumer, List.of(TaskId.of("task")), "boom " + HIGH));

        TaskSnapshot snapshot = store.get(TaskId.of("task")).orElseThrow();
        assertThat(snapshot.state()).isEqualTo(TaskState.IN_FLIGHT);
        assertThat(snapshot.holder()).contains(consumer);
        assertThat(store.deadLetters(0, 10).total()).isZero();
    }

    @Test
    void names_with_characters_that_change_how_they_display_are_refused_naming_the_field() {
        MISLEADING.forEach((what, character) -> {
            String name = "account" + character + "42";
            assertInvalid("id", what, () -> TaskId.of(name));
            assertInvalid("partition", what, () -> Partition.regular(name));
            assertInvalid("partition", what, () -> Partition.ordered(name));
            assertInvalid("partition", what, () -> Partition.of("!" + name));
            assertInvalid("consumer", what, () -> ConsumerId.of(name));
            assertInvalid("queue", what, () -> QueueName.of(name));
            assertInvalid("headers.name", what, () -> NewTask.builder(Partition.regular("p"), new byte[0])
                    .header(name, "v").build());
        });
        assertThat(store.stats().ready()).isZero();
    }

    @Test
    void header_values_may_hold_what_names_may_not() {
        Map<String, String> headers = new LinkedHashMap<>();
        MISLEADING.forEach((what, character) -> headers.put(what.replace(' ', '-').replaceAll("[()]", ""),
                "before" + character + "after"));
        NewTask task = NewTask.builder(Partition.regular("p"), new byte[0]).id("with-headers").build();
        NewTask withHeaders = new NewTask(task.id(), task.partition(), task.priority(), task.payload(), task.delay(),
                headers);

        store.publish(List.of(withHeaders));

        assertThat(store.get(TaskId.of("with-headers")).orElseThrow().task().headers()).isEqualTo(headers);
    }

    // ------------------------------------------------------------------------------ helpers

    private void publish(String id, Partition partition) {
        assertThat(store.publish(List.of(NewTask.builder(partition, new byte[] {1}).id(id).build())))
                .extracting(PublishReceipt::outcome).containsExactly(PublishOutcome.CREATED);
    }

    private static void assertInvalid(String field, ThrowingCallable call) {
        assertInvalid(field, "", call);
    }

    private static void assertInvalid(String field, String what, ThrowingCallable call) {
        assertThatThrownBy(call).as("%s in %s", what, field).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).as("field named by " + e.getMessage()).isEqualTo(field));
    }
}
