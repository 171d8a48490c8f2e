package io.ordo.runtime;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.PayloadCodecException;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PublisherTest {
    record Deposit(String account, long cents) {
    }

    private static final Partition ACCOUNT = Partition.ordered("account-42");
    private static final Partition AUDIT = Partition.regular("audit");
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");

    private final VirtualClock clock = new VirtualClock();
    private final TaskStore store = new InMemoryTaskStoreFactory(clock).forQueue(QueueName.of("deposits"));
    private final PayloadCodec codec = new JacksonPayloadCodec();
    private final Publisher<Deposit> deposits = new Publisher<>(store, codec);

    @Test
    void a_typed_payload_arrives_as_the_same_value() {
        Deposit deposit = new Deposit("account-42", 100);

        PublishReceipt receipt = deposits.publish(ACCOUNT, deposit);

        assertThat(receipt.outcome()).isEqualTo(PublishOutcome.CREATED);
        Lease lease = consumeOne();
        assertThat(lease.id()).isEqualTo(receipt.id());
        assertThat(lease.partition()).isEqualTo(ACCOUNT);
        assertThat(codec.decode(lease.task().payload(), Deposit.class)).isEqualTo(deposit);
    }

    @Test
    void a_batch_into_an_ordered_partition_keeps_list_order() {
        List<Deposit> batch = List.of(new Deposit("a", 1), new Deposit("a", 2), new Deposit("a", 3));

        List<PublishReceipt> receipts = deposits.publishAll(ACCOUNT, batch);

        List<Lease> leases = store.consume(WORKER, 10, Duration.ZERO);
        assertThat(leases).extracting(Lease::id).containsExactlyElementsOf(receipts.stream().map(PublishReceipt::id).toList());
        assertThat(leases).extracting(lease -> codec.decode(lease.task().payload(), Deposit.class)).containsExactlyElementsOf(batch);
    }

    @Test
    void a_caller_chosen_id_makes_a_second_publish_a_duplicate() {
        Publication<Deposit> publication = Publication.of(ACCOUNT, new Deposit("a", 1)).withId("deposit-1");

        assertThat(deposits.publish(publication)).isEqualTo(new PublishReceipt(TaskId.of("deposit-1"), PublishOutcome.CREATED));
        assertThat(deposits.publish(publication)).isEqualTo(new PublishReceipt(TaskId.of("deposit-1"), PublishOutcome.DUPLICATE));
        assertThat(store.stats().publishedTotal()).isEqualTo(1);
    }

    @Test
    void receipts_come_back_in_batch_order_across_partitions() {
        List<PublishReceipt> receipts = deposits.publishAll(List.of(
                Publication.of(AUDIT, new Deposit("a", 1)).withId("audit-1"),
                Publication.of(ACCOUNT, new Deposit("a", 1)).withId("deposit-1"),
                Publication.of(AUDIT, new Deposit("a", 1)).withId("audit-1")));

        assertThat(receipts).extracting(PublishReceipt::id).extracting(TaskId::value)
                .containsExactly("audit-1", "deposit-1", "audit-1");
        assertThat(receipts).extracting(PublishReceipt::outcome)
                .containsExactly(PublishOutcome.CREATED, PublishOutcome.CREATED, PublishOutcome.DUPLICATE);
    }

    @Test
    void a_higher_priority_is_taken_first() {
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withId("routine"));
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 2)).withId("urgent").withPriority(10));

        assertThat(consumeOne().id()).isEqualTo(TaskId.of("urgent"));
    }

    @Test
    void a_delayed_task_waits_until_it_is_due() {
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withId("later").withDelay(Duration.ofSeconds(5)));

        assertThat(store.get(TaskId.of("later"))).get().extracting(snapshot -> snapshot.state()).isEqualTo(TaskState.DELAYED);
        assertThat(store.consume(WORKER, 1, Duration.ZERO)).isEmpty();

        clock.advance(Duration.ofSeconds(5));
        assertThat(consumeOne().id()).isEqualTo(TaskId.of("later"));
    }

    @Test
    void a_task_to_run_at_an_instant_waits_until_then_and_keeps_it_through_later_changes() {
        java.time.Instant at = java.time.Instant.ofEpochMilli(clock.millis() + 5_000);
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withRunAt(at).withId("at").withHeader("k", "v"));

        assertThat(store.get(TaskId.of("at"))).get().extracting(snapshot -> snapshot.task().dueAt())
                .isEqualTo(at.toEpochMilli());
        clock.advance(Duration.ofMillis(4_999));
        assertThat(store.consume(WORKER, 1, Duration.ZERO)).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(consumeOne().id()).isEqualTo(TaskId.of("at"));
    }

    @Test
    void a_delay_after_an_instant_replaces_it() {
        Publication<Deposit> publication = Publication.of(AUDIT, new Deposit("a", 1))
                .withRunAt(java.time.Instant.EPOCH).withDelay(Duration.ofSeconds(1));

        assertThat(publication.runAt()).isNull();
        assertThat(publication.delay()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void headers_travel_with_the_task() {
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withHeader("trace-id", "t-1"));

        assertThat(consumeOne().task().headers()).containsEntry("trace-id", "t-1");
    }

    @Test
    void one_invalid_task_writes_nothing_of_the_batch() {
        store.configure(QueueSettings.builder().maxPayloadBytes(64).build());
        List<Publication<Deposit>> batch = List.of(
                Publication.of(AUDIT, new Deposit("a", 1)),
                Publication.of(AUDIT, new Deposit("a".repeat(100), 1)));

        assertThatThrownBy(() -> deposits.publishAll(batch))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("tasks[1].payload: ");
        assertThat(store.stats().publishedTotal()).isZero();
    }

    @Test
    void a_payload_the_codec_cannot_encode_writes_nothing() {
        Publisher<Object> anything = new Publisher<>(store, codec);
        List<Publication<Object>> batch = List.of(
                Publication.of(AUDIT, new Deposit("a", 1)),
                Publication.of(AUDIT, new Object()));

        assertThatThrownBy(() -> anything.publishAll(batch))
                .isInstanceOf(PayloadCodecException.class).hasMessageContaining("java.lang.Object");
        assertThat(store.stats().publishedTotal()).isZero();
    }

    @Test
    void null_entries_are_bad_input_naming_their_position() {
        assertThatThrownBy(() -> deposits.publishAll(AUDIT, Arrays.asList(new Deposit("a", 1), null)))
                .isInstanceOf(InvalidInputException.class).hasMessage("payloads[1]: must not be null");
        assertThatThrownBy(() -> deposits.publishAll(Arrays.asList(Publication.of(AUDIT, new Deposit("a", 1)), null)))
                .isInstanceOf(InvalidInputException.class).hasMessage("publications[1]: must not be null");
    }

    private Lease consumeOne() {
        List<Lease> leases = store.consume(WORKER, 1, Duration.ZERO);
        assertThat(leases).hasSize(1);
        return leases.get(0);
    }

    @Test
    void a_task_gets_its_payload_classs_simple_name_as_type_unless_the_publisher_or_publication_names_one() {
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withId("by-class"));
        new Publisher<Deposit>(store, codec, "deposit-v2").publish(Publication.of(AUDIT, new Deposit("a", 2)).withId("by-publisher"));
        new Publisher<Deposit>(store, codec, "deposit-v2")
                .publish(Publication.of(AUDIT, new Deposit("a", 3)).withId("by-publication").withType("refund"));
        new Publisher<Object>(store, codec).publish(Publication.of(AUDIT, (Object) new Object() {
            public final int n = 1;
        }).withId("anonymous"));

        assertThat(typeOf("by-class")).isEqualTo("Deposit");
        assertThat(typeOf("by-publisher")).isEqualTo("deposit-v2");
        assertThat(typeOf("by-publication")).isEqualTo("refund");
        assertThat(typeOf("anonymous")).matches("PublisherTest\\$\\d+");
    }

    @Test
    void a_publication_carries_its_own_attempts_limit_backoff_and_timeout_to_the_task() {
        RetryPolicy fixed = new RetryPolicy(Duration.ofSeconds(3), 1.0, Duration.ofSeconds(3), 0.0);

        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withId("own").withMaxAttempts(2).withRetryPolicy(fixed)
                .withTimeout(Duration.ofMinutes(10)));
        deposits.publish(Publication.of(AUDIT, new Deposit("a", 1)).withId("queue-s"));

        Task own = store.get(TaskId.of("own")).orElseThrow().task();
        assertThat(own.maxAttempts()).isEqualTo(2);
        assertThat(own.retryPolicy()).isEqualTo(fixed);
        assertThat(own.timeout()).isEqualTo(Duration.ofMinutes(10));
        Task queues = store.get(TaskId.of("queue-s")).orElseThrow().task();
        assertThat(queues.maxAttempts()).isZero();
        assertThat(queues.retryPolicy()).isNull();
        assertThat(queues.timeout()).isZero();
    }

    @Test
    void a_bad_type_or_attempts_limit_is_refused_naming_the_field_and_nothing_is_published() {
        Publication<Deposit> publication = Publication.of(AUDIT, new Deposit("a", 1));
        assertThatThrownBy(() -> publication.withType("tab\there")).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).isEqualTo("type"));
        assertThatThrownBy(() -> new Publisher<Deposit>(store, codec, "")).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).isEqualTo("type"));
        for (int bad : new int[] {0, -1, 1001}) {
            assertThatThrownBy(() -> publication.withMaxAttempts(bad)).isInstanceOfSatisfying(InvalidInputException.class,
                    e -> assertThat(e.field()).isEqualTo("maxAttempts"));
        }
        assertThat(store.stats().publishedTotal()).isZero();
    }

    private String typeOf(String id) {
        return store.get(TaskId.of(id)).orElseThrow().task().type();
    }
}
