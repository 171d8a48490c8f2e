package io.ordo.tck.contract;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import io.ordo.tck.fixtures.HostileNames;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.ordo.ports.AckOutcome.ACKED;
import static io.ordo.ports.PublishOutcome.CREATED;
import static io.ordo.ports.RejectOutcome.RETURNED;
import static io.ordo.ports.RejectOutcome.RETURNED_WITH_BATCH;
import static io.ordo.tck.contract.StoreCharacteristic.QUEUE_WIDE_ORDER;
import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.ConsumerFixture.workerB;
import static io.ordo.tck.fixtures.PartitionFixture.regularPartition;
import static io.ordo.tck.fixtures.TaskFixture.numberedTasksIn;
import static io.ordo.tck.fixtures.TaskFixture.payloadOf;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static io.ordo.tck.fixtures.TaskIds.id;
import static io.ordo.tck.fixtures.TaskIds.ids;
import static io.ordo.tck.fixtures.TaskIds.idsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Ids, partitions, consumers and reasons with special characters never collide. */
public abstract class HostileNamesNeverCollideContract extends ContractContext {
    protected HostileNamesNeverCollideContract(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void task_ids_with_special_characters_are_kept_apart() {
        List<String> hostile = HostileNames.all();
        Partition partition = regularPartition();

        List<PublishReceipt> receipts = store.publish(hostile.stream()
                .map(id -> task(id, partition).build()).collect(Collectors.toList()));

        assertThat(receipts).extracting(PublishReceipt::outcome).containsOnly(CREATED);
        assertThat(receipts).extracting(receipt -> receipt.id().value()).containsExactlyElementsOf(hostile);
        assertThat(store.stats().ready()).isEqualTo(hostile.size());
        assertThat(hostile).allSatisfy(id -> assertThat(snapshot(id).task().payload()).containsExactly(payloadOf(id)));
        List<Lease> leases = consume(workerA(), hostile.size());
        assertThat(idsOf(leases)).containsExactlyElementsOf(hostile);
        assertThat(store.ack(workerA(), ids(hostile)).values()).containsOnly(ACKED);
        assertThat(store.stats().inFlight()).isZero();
        assertThat(hostile).allSatisfy(id -> assertThat(store.get(id(id))).isEmpty());
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void partition_codes_with_special_characters_are_kept_apart() {
        List<String> codes = HostileNames.partitionCodes();
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < codes.size(); i++) {
            tasks.add(task("t" + i, Partition.of(codes.get(i))).build());
        }
        given(tasks);

        assertThat(store.stats().activePartitions()).isEqualTo(codes.size());
        List<Lease> leases = consume(workerA(), TaskStore.MAX_CONSUME);

        assertThat(leases).extracting(lease -> lease.partition().code()).containsExactlyElementsOf(codes);
        assertThat(idsOf(leases)).containsExactlyElementsOf(numberedFromZero("t", codes.size()));
        long ordered = codes.stream().filter(code -> code.startsWith("!")).count();
        assertThat(store.stats().lockedPartitions()).isEqualTo(ordered);
    }

    @Test
    @RequiresCharacteristic(QUEUE_WIDE_ORDER)
    void hostile_partition_codes_never_share_a_lock_or_a_block() {
        given(task("ordered-a", Partition.of("!a")), task("ordered-a-2", Partition.of("!a")));
        given(task("regular-a", Partition.of("a")), task("a-colon", Partition.of("!a:")),
                task("braced", Partition.of("!{a}")), task("colon-b", Partition.of("a:b")),
                task("colon-b-c", Partition.of("a:b:c")), task("braced-colon-b", Partition.of("{a:b}")));
        consume(workerA(), 1);
        store.blockPartition(Partition.of("a:b"), Duration.ofMinutes(1));

        assertThat(consumeIds(workerB(), 10)).containsExactly("regular-a", "a-colon", "braced", "colon-b-c", "braced-colon-b");
    }

    @Test
    void consumers_with_special_characters_are_kept_apart() {
        List<String> names = HostileNames.all();
        Partition partition = regularPartition();
        given(numberedTasksIn(partition, "t", names.size()));
        for (int i = 0; i < names.size(); i++) {
            assertThat(consumeIds(ConsumerId.of(names.get(i)), 1)).containsExactly("t" + (i + 1));
        }

        assertThat(store.stats().liveConsumers()).isEqualTo(names.size());
        for (int i = 0; i < names.size(); i++) {
            String taskId = "t" + (i + 1);
            assertThat(snapshot(taskId).holder()).contains(ConsumerId.of(names.get(i)));
            String other = names.get((i + 1) % names.size());
            assertThat(store.ack(ConsumerId.of(other), ids(taskId)).values()).containsExactly(AckOutcome.LEASE_LOST);
        }
        for (int i = 0; i < names.size(); i++) {
            assertThat(store.ack(ConsumerId.of(names.get(i)), ids("t" + (i + 1))).values()).containsExactly(ACKED);
        }
    }

    @Test
    void hostile_ids_reasons_and_partitions_survive_every_operation() {
        String weird = "!{ordo}:a b:\u00e4\uD83D\uDE00";
        String next = weird + ":2";
        Partition ordered = Partition.ordered("{x}:y \u00e4");
        String reason = "failed: {json: \"a:b\"} \u00e4 \uD83D\uDE00 !";
        ConsumerId consumer = ConsumerId.of("w:{1} \u00e4");
        given(task(weird, ordered), task(next, ordered));

        assertThat(consumeIds(consumer, 10)).containsExactly(weird, next);
        assertThat(store.reject(consumer, ids(weird), Rejection.retryNow(reason)))
                .containsOnly(entry(id(weird), RETURNED), entry(id(next), RETURNED_WITH_BATCH));
        assertThat(snapshot(weird).task().lastError()).isEqualTo(reason);
        assertThat(consumeIds(consumer, 1)).containsExactly(weird);
        store.fail(consumer, ids(weird), reason);
        assertThat(store.deadLetters(0, 10).items()).singleElement().satisfies(dead -> {
            assertThat(dead.id().value()).isEqualTo(weird);
            assertThat(dead.reason()).isEqualTo(reason);
            assertThat(dead.task().partition()).isEqualTo(ordered);
        });
        assertThat(consumeIds(workerB(), 10)).containsExactly(next);
        assertThat(store.cancel(ids(next))).containsExactly(entry(id(next), CancelOutcome.CANCEL_REQUESTED));
        assertThat(store.redrive(ids(weird))).containsExactly(entry(id(weird), RedriveOutcome.REDRIVEN));
        assertThat(store.ack(workerB(), ids(next))).containsExactly(entry(id(next), ACKED));
        assertThat(consumeIds(workerB(), 10)).containsExactly(weird);
        assertThat(store.cancel(ids(weird))).containsExactly(entry(id(weird), CancelOutcome.CANCEL_REQUESTED));
    }

    private List<String> numberedFromZero(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.toList());
    }
}
