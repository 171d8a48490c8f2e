package io.ordo.tck.contract;

import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskSnapshot;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.domain.TaskState.DEAD;
import static io.ordo.domain.TaskState.DELAYED;
import static io.ordo.domain.TaskState.PENDING;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.PublishOutcome.DUPLICATE;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_IDS;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_SEQ;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.everyByteValue;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.payloadOf;
import static io.ordo.tck.fixtures.TaskFixture.payloadOfSize;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskFixture.tasksIn;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Publishing: receipts, ids and duplicates, seq, delays, priorities and payloads kept byte for byte. */
public abstract class PublishContract extends ContractContext {
    protected PublishContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void a_published_task_is_stored_exactly_as_given_and_pending() {
        Partition partition = regularPartition();
        byte[] payload = {1, 2, 3};

        List<PublishReceipt> receipts = store.publish(List.of(task("invoice-1", partition).priority(7)
                .payload(payload).header("trace", "abc").header("tenant", "t-1").build()));

        assertThat(receipts).containsExactly(receipt("invoice-1", CREATED));
        TaskSnapshot snapshot = snapshot("invoice-1");
        assertThat(snapshot.state()).isEqualTo(PENDING);
        assertThat(snapshot.holder()).isEmpty();
        Task stored = snapshot.task();
        assertThat(stored.id()).isEqualTo(id("invoice-1"));
        assertThat(stored.partition()).isEqualTo(partition);
        assertThat(stored.priority()).isEqualTo(Priority.of(7));
        assertThat(stored.payload()).containsExactly(payload);
        assertThat(stored.headers()).isEqualTo(Map.of("trace", "abc", "tenant", "t-1"));
        assertThat(stored.seq()).isEqualTo(1);
        assertThat(stored.attempts()).isZero();
        assertThat(stored.publishedAt()).isEqualTo(now());
        assertThat(stored.dueAt()).isEqualTo(now());
        assertThat(stored.readyAt()).isEqualTo(now());
        assertThat(stored.lastError()).isNull();
    }

    @Test
    void receipts_come_back_in_batch_order() {
        List<PublishReceipt> receipts = store.publish(List.of(task("c").build(), task("a").build(), task("b").build()));

        assertThat(receipts).containsExactly(receipt("c", CREATED), receipt("a", CREATED), receipt("b", CREATED));
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_SEQ)
    void seq_counts_up_from_one_in_publish_order_within_and_across_batches() {
        given(task("c"), task("a"));
        given(task("b"));

        assertThat(List.of("c", "a", "b")).extracting(id -> snapshot(id).task().seq()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void tasks_published_in_the_same_millisecond_keep_publish_order() {
        Partition partition = regularPartition();
        // Ids out of lexical order, so a store that breaks ties by id instead of seq fails.
        List<String> publishOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
        publishOrder.forEach(id -> given(task(id, partition)));

        assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(publishOrder);
    }

    @Test
    void tasks_of_one_batch_keep_batch_order() {
        Partition partition = regularPartition();
        List<String> batchOrder = IntStream.range(0, 30).mapToObj(i -> "t" + (i * 17 % 30)).collect(Collectors.toList());
        given(tasksIn(partition, batchOrder.toArray(String[]::new)));

        assertThat(consumeIds(workerA(), 30)).containsExactlyElementsOf(batchOrder);
    }

    @Test
    void a_delayed_task_is_delayed_until_exactly_its_due_time() {
        given(task("later").delayedBy(Duration.ofSeconds(10)));

        assertThat(stateOf("later")).isEqualTo(DELAYED);
        assertThat(snapshot("later").task().dueAt()).isEqualTo(now() + 10_000);
        assertThat(snapshot("later").task().readyAt()).isEqualTo(now() + 10_000);
        advanceMillis(9_999);
        assertThat(consume(workerA(), 10)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerA(), 10)).containsExactly("later");
    }

    @Test
    void a_task_due_earlier_goes_first_even_if_published_later() {
        Partition partition = regularPartition();
        given(task("due-in-2ms", partition).delayedByMillis(2));
        given(task("due-in-1ms", partition).delayedByMillis(1));
        given(task("due-now", partition));
        advanceMillis(2);

        assertThat(consumeIds(workerA(), 3)).containsExactly("due-now", "due-in-1ms", "due-in-2ms");
    }

    @Test
    void higher_priority_goes_first_then_earlier_due_time_then_publish_order() {
        Partition partition = regularPartition();
        given(task("normal", partition),
                task("urgent-due-later", partition).priority(5).delayedBy(Duration.ofSeconds(1)),
                task("urgent", partition).priority(5),
                task("low", partition).priority(-3),
                task("normal-too", partition));
        advance(Duration.ofSeconds(1));

        assertThat(consumeIds(workerA(), 5)).containsExactly("urgent", "urgent-due-later", "normal", "normal-too", "low");
    }

    @Test
    void the_whole_priority_range_is_ordered_exactly() {
        Partition partition = regularPartition();
        given(task("min", partition).priority(Priority.MIN), task("zero", partition).priority(0),
                task("max-1", partition).priority(Priority.MAX - 1), task("min+1", partition).priority(Priority.MIN + 1),
                task("max", partition).priority(Priority.MAX), task("one", partition).priority(1));

        assertThat(consumeIds(workerA(), 6)).containsExactly("max", "max-1", "one", "zero", "min+1", "min");
    }

    @Test
    void a_task_delayed_by_the_longest_delay_falls_due_exactly_then() {
        given(task("next-year").delayedBy(NewTask.MAX_DELAY).priority(Priority.MAX));

        advance(NewTask.MAX_DELAY.minusMillis(1));
        assertThat(consume(workerA(), 1)).isEmpty();
        advanceMillis(1);
        assertThat(consumeIds(workerA(), 1)).containsExactly("next-year");
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void binary_payloads_empty_payloads_and_headers_come_back_byte_for_byte() {
        given(task("binary").payload(everyByteValue()).header("h:{1}", "v \u00e4 \uD83D\uDE00").header("empty", ""),
                task("empty").payload(new byte[0]));

        assertThat(snapshot("binary").task().payload()).containsExactly(everyByteValue());
        assertThat(snapshot("binary").task().headers()).isEqualTo(Map.of("h:{1}", "v \u00e4 \uD83D\uDE00", "empty", ""));
        assertThat(snapshot("empty").task().payload()).isEmpty();
        assertThat(snapshot("empty").task().headers()).isEmpty();
        List<Lease> leases = consume(workerA(), 2);
        assertThat(leases).extracting(lease -> lease.task().payload()).containsExactly(everyByteValue(), new byte[0]);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_IDS)
    void publishing_an_id_that_exists_is_a_duplicate_and_changes_nothing() {
        given(task("x").payload("first"));
        Task before = snapshot("x").task();
        advanceMillis(5);

        List<PublishReceipt> receipts = store.publish(List.of(task("x").payload("second").priority(9)
                .delayedBy(Duration.ofHours(1)).build()));

        assertThat(receipts).containsExactly(receipt("x", DUPLICATE));
        assertThat(snapshot("x").task()).isEqualTo(before);
        QueueStats stats = store.stats();
        assertThat(stats.ready()).isEqualTo(1);
        assertThat(stats.delayed()).isZero();
        assertThat(stats.activePartitions()).isEqualTo(1);
        assertThat(stats.publishedTotal()).isEqualTo(1);
    }

    @Test
    void the_same_id_twice_in_one_batch_is_created_once_then_duplicate() {
        Partition partition = regularPartition();

        List<PublishReceipt> receipts = store.publish(List.of(task("x", partition).payload("first").build(),
                task("y", partition).build(), task("x", partition).payload("second").build()));

        assertThat(receipts).containsExactly(receipt("x", CREATED), receipt("y", CREATED), receipt("x", DUPLICATE));
        assertThat(consume(workerA(), 10)).extracting(lease -> new String(lease.task().payload(), StandardCharsets.UTF_8))
                .containsExactly("first", new String(payloadOf("y"), StandardCharsets.UTF_8));
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_IDS)
    void an_id_in_flight_or_dead_is_still_a_duplicate() {
        given(task("x"));
        consume(workerA(), 1);

        assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", DUPLICATE));
        store.fail(workerA(), ids("x"), "broken");
        assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", DUPLICATE));
        assertThat(stateOf("x")).isEqualTo(DEAD);
    }

    @Test
    void an_acked_id_may_be_published_again_when_no_dedup_window_is_set() {
        given(task("x"));
        consume(workerA(), 1);
        store.ack(workerA(), ids("x"));

        assertThat(store.publish(List.of(task("x").build()))).containsExactly(receipt("x", CREATED));
        assertThat(snapshot("x").task().attempts()).isZero();
    }

    @Test
    void a_batch_with_one_invalid_task_writes_nothing() {
        List<NewTask> batch = List.of(task("fine-1").build(),
                task("too-big").payload(payloadOfSize(QueueSettings.DEFAULT_MAX_PAYLOAD_BYTES + 1)).build(),
                task("fine-2").build());

        assertInvalid("tasks[1].payload", () -> store.publish(batch));

        assertThat(store.get(id("fine-1"))).isEmpty();
        assertThat(store.get(id("fine-2"))).isEmpty();
        QueueStats stats = store.stats();
        assertThat(stats.ready()).isZero();
        assertThat(stats.activePartitions()).isZero();
        assertThat(stats.publishedTotal()).isZero();
        // Nothing was reserved either: the valid tasks publish afterwards as new, numbered from one.
        assertThat(store.publish(List.of(batch.get(0), batch.get(2)))).extracting(PublishReceipt::outcome)
                .containsExactly(CREATED, CREATED);
        assertThat(snapshot("fine-1").task().seq()).isEqualTo(1);
    }

    @Test
    void a_payload_of_exactly_the_maximum_size_is_accepted_and_one_byte_more_is_not() {
        configure(s -> s.maxPayloadBytes(64));

        assertThat(store.publish(List.of(task("fits").payload(payloadOfSize(64)).build())))
                .containsExactly(receipt("fits", CREATED));
        assertInvalid("tasks[0].payload",
                () -> store.publish(List.of(task("too-big").payload(payloadOfSize(65)).build())));
        assertThat(store.get(id("too-big"))).isEmpty();
    }

    @Test
    void an_empty_or_null_batch_is_rejected() {
        assertInvalid("tasks", () -> store.publish(List.of()));
        assertInvalid("tasks", () -> store.publish(null));
        assertThat(store.stats().publishedTotal()).isZero();
    }

    @Test
    void a_null_task_is_rejected_naming_its_position_and_nothing_is_written() {
        assertInvalid("tasks[1]", () -> store.publish(Arrays.asList(task("fine").build(), null)));
        assertThat(store.get(id("fine"))).isEmpty();
    }

    @Test
    void a_batch_of_ten_thousand_tasks_is_accepted_and_one_more_is_rejected() {
        Partition partition = regularPartition();
        List<NewTask> full = numberedTasksIn(partition, "t", 10_000);
        List<NewTask> tooMany = numberedTasksIn(partition, "u", 10_001);

        assertThat(store.publish(full)).hasSize(10_000).extracting(PublishReceipt::outcome).containsOnly(CREATED);
        assertInvalid("tasks", () -> store.publish(tooMany));
        assertThat(store.stats().ready()).isEqualTo(10_000);
        assertThat(store.get(id("u1"))).isEmpty();
    }
}
