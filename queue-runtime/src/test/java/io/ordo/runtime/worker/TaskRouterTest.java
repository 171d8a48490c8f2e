package io.ordo.runtime.worker;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskState;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskSnapshot;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A routing worker on the in-memory store: each task to its type's handler, unknown types by policy. */
class TaskRouterTest {
    record Deposit(String account, long cents) {
    }

    record Refund(String order) {
    }

    private static final Partition ACCOUNTS = Partition.regular("accounts");

    private final WorkerHarness harness = new WorkerHarness();
    private final List<String> handled = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void each_task_goes_to_the_handler_of_its_type_decoded_as_that_routes_class() {
        new Publisher<Deposit>(harness.store, new JacksonPayloadCodec())
                .publish(Publication.of(ACCOUNTS, new Deposit("acct-1", 100)).withId("d1"));
        new Publisher<Refund>(harness.store, new JacksonPayloadCodec())
                .publish(Publication.of(ACCOUNTS, new Refund("order-7")).withId("r1"));

        harness.startRouting(TaskRouter.builder()
                .on(Deposit.class, (deposit, context) -> handle("deposit " + deposit.account() + " " + deposit.cents()))
                .on(Refund.class, (refund, context) -> handle("refund " + refund.order() + " as " + context.task().type()))
                .build());

        Eventually.until("both are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(handled).containsExactlyInAnyOrder("deposit acct-1 100", "refund order-7 as Refund");
    }

    @Test
    void a_route_decodes_with_its_own_codec_and_a_publication_may_name_its_type() {
        PayloadCodec shouting = new PayloadCodec() {
            @Override
            public byte[] encode(Object value) {
                return value.toString().getBytes(UTF_8);
            }

            @Override
            public <T> T decode(byte[] payload, Class<T> type) {
                return type.cast(new String(payload, UTF_8).toUpperCase());
            }
        };
        new Publisher<String>(harness.store, shouting).publish(Publication.of(ACCOUNTS, "hello").withType("greeting"));

        harness.startRouting(TaskRouter.builder()
                .on("greeting", String.class, shouting, (text, context) -> handle(text))
                .on(Deposit.class, (deposit, context) -> handle("deposit"))
                .build());

        Eventually.until("the greeting is processed", () -> harness.events.count(Settlement.PROCESSED) == 1);
        assertThat(handled).containsExactly("HELLO");
    }

    @Test
    void by_default_a_task_of_an_unknown_type_or_without_one_becomes_a_dead_letter_saying_so() {
        harness.store.publish(List.of(
                NewTask.builder(ACCOUNTS, "{}".getBytes(UTF_8)).id("mystery").type("Mystery").build(),
                NewTask.builder(ACCOUNTS, "{}".getBytes(UTF_8)).id("untyped").build()));

        harness.startRouting(TaskRouter.builder().on(Deposit.class, (deposit, context) -> handle("deposit")).build());

        Eventually.until("both are dead letters", () -> harness.events.count(Settlement.DEAD_LETTERED) == 2);
        assertThat(harness.store.deadLetters(0, 10).items()).extracting(DeadLetter::reason)
                .containsExactlyInAnyOrder("no handler for type Mystery", "no handler for tasks without a type");
        assertThat(handled).isEmpty();
    }

    @Test
    void passed_on_a_task_of_an_unknown_type_goes_back_unprocessed_after_the_wait_its_attempt_not_counted()
            throws InterruptedException {
        VirtualScheduler time = harness.onVirtualTime();
        harness.store.publish(List.of(NewTask.builder(ACCOUNTS, "{}".getBytes(UTF_8)).id("mystery").type("Mystery")
                .build()));
        long start = harness.clock.millis();

        harness.startRouting(TaskRouter.builder().on(Deposit.class, (deposit, context) -> handle("deposit"))
                .unknownTypes(TaskRouter.UnknownTypes.passOn(Duration.ofSeconds(2))).build());

        time.awaitJobDueAt(start + 2000);
        assertThat(harness.get("mystery").state()).as("held through the wait").isEqualTo(TaskState.IN_FLIGHT);
        assertThat(harness.events.count(Settlement.PASSED_ON)).isZero();
        time.advance(Duration.ofSeconds(2));

        Eventually.until("mystery is passed on", () -> harness.events.count(Settlement.PASSED_ON) >= 1);
        assertThat(harness.events.count(Settlement.DEAD_LETTERED)).isZero();
        assertThat(harness.store.stats().deadLetteredTotal()).isZero();
        // waiting again with no attempt counted, or already taken again: then this delivery is its first
        TaskSnapshot now = harness.get("mystery");
        assertThat(now.task().attempts()).as("attempts not counted (%s)", now.state())
                .isEqualTo(now.state() == TaskState.IN_FLIGHT ? 1 : 0);
        assertThat(handled).isEmpty();
    }

    @Test
    void the_fallback_route_takes_every_type_without_a_route_and_untyped_tasks() {
        harness.store.publish(List.of(
                NewTask.builder(ACCOUNTS, "\"a\"".getBytes(UTF_8)).id("other").type("Other").build(),
                NewTask.builder(ACCOUNTS, "\"b\"".getBytes(UTF_8)).id("untyped").build()));

        harness.startRouting(TaskRouter.builder()
                .on(Deposit.class, (deposit, context) -> handle("deposit"))
                .otherwise(String.class, (text, context) -> handle(text + " " + context.task().typeIfAny().orElse("-")))
                .build());

        Eventually.until("both are processed", () -> harness.events.count(Settlement.PROCESSED) == 2);
        assertThat(handled).containsExactlyInAnyOrder("a Other", "b -");
    }

    @Test
    void a_payload_its_route_cannot_decode_becomes_a_dead_letter_at_once() {
        harness.store.publish(List.of(NewTask.builder(ACCOUNTS, "not json".getBytes(UTF_8)).id("bad").type("Deposit")
                .build()));

        harness.startRouting(TaskRouter.builder().on(Deposit.class, (deposit, context) -> handle("deposit")).build());

        Eventually.until("bad is a dead letter", () -> harness.events.count(Settlement.DEAD_LETTERED) == 1);
        DeadLetter dead = harness.store.deadLetters(0, 10).items().get(0);
        assertThat(dead.reason()).startsWith("cannot decode the payload as " + Deposit.class.getName() + ": ");
        assertThat(dead.attempts()).isEqualTo(1);
    }

    @Test
    void a_routes_handler_that_throws_is_retried_with_the_workers_backoff() {
        harness.maxAttempts(2);
        new Publisher<Deposit>(harness.store, new JacksonPayloadCodec())
                .publish(Publication.of(ACCOUNTS, new Deposit("acct-1", 1)).withId("d1"));

        harness.startRouting(TaskRouter.builder().on(Deposit.class, (deposit, context) -> {
            throw new IllegalStateException("bank down");
        }).build());

        Eventually.until("d1 is retried", () -> harness.events.count(Settlement.RETRIED) == 1);
        assertThat(harness.get("d1").task().readyAt()).isEqualTo(harness.clock.millis() + 1000);
        assertThat(harness.get("d1").task().lastError()).isEqualTo("java.lang.IllegalStateException: bank down");
    }

    @Test
    void a_router_refuses_a_bad_or_repeated_type_no_routes_and_a_codec_given_to_the_worker() {
        TaskHandler<String> any = (text, context) -> Outcome.success();
        assertThatThrownBy(() -> TaskRouter.builder().on("a\u202Eb", String.class, any))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("type"));
        assertThatThrownBy(() -> TaskRouter.builder().on("t", String.class, any).on("t", String.class, any))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("type"));
        assertThatThrownBy(() -> TaskRouter.builder().build())
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("routes"));
        assertThatThrownBy(() -> TaskRouter.UnknownTypes.passOn(Duration.ZERO))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("after"));
        TaskRouter router = TaskRouter.builder().on("t", String.class, any).build();
        assertThat(router.types()).containsExactly("t");
        assertThatThrownBy(() -> Worker.routing(harness.store, router).codec(new JacksonPayloadCodec()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("route's codec");
    }

    private Outcome handle(String what) {
        handled.add(what);
        return Outcome.success();
    }
}
