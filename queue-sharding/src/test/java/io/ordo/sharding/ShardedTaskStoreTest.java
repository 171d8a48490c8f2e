package io.ordo.sharding;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.PartitionBacklog;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.QueueInspection;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.QueueStats;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What only a sharded store does: where partitions go, how consumers visit shards, how ids find their shard. */
class ShardedTaskStoreTest {
    private static final QueueName QUEUE = QueueName.of("orders");
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");
    /** One partition per shard of four, by CRC-32 of the code modulo 4. */
    private static final List<Partition> ONE_PER_SHARD = List.of(Partition.regular("p4"), Partition.regular("p0"),
            Partition.regular("emails"), Partition.regular("a"));

    private final VirtualClock clock = new VirtualClock();
    private final InMemoryTaskStoreFactory backend = new InMemoryTaskStoreFactory(clock);
    /** Calls each shard received, by operation name, for the routing tests. */
    private final List<List<String>> calls = new ArrayList<>();
    private final ShardedTaskStore store = ShardedTaskStore.create(QUEUE, 4, this::countedShard);

    private TaskStore countedShard(QueueName queue, int index) {
        TaskStore shard = backend.forQueue(QueueName.of(queue + ".shard-" + index));
        List<String> received = new ArrayList<>();
        calls.add(received);
        return (TaskStore) Proxy.newProxyInstance(TaskStore.class.getClassLoader(), new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                    received.add(method.getName());
                    try {
                        return method.invoke(shard, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private TaskStore shard(int index) {
        return backend.forQueue(QueueName.of(QUEUE + ".shard-" + index));
    }

    /** A wake interval far beyond the tests' bounds: only waiting on every shard at once meets them. */
    private ShardedTaskStore slowWaking() {
        return ShardedTaskStore.builder(QUEUE, 4, this::countedShard).wakeInterval(Duration.ofSeconds(30)).build();
    }

    private static NewTask task(String id, Partition partition) {
        return NewTask.builder(partition, id.getBytes(StandardCharsets.UTF_8)).id(id).build();
    }

    private static List<String> ids(List<Lease> leases) {
        return leases.stream().map(lease -> lease.id().value()).toList();
    }

    private void forgetCalls() {
        calls.forEach(List::clear);
    }

    @Test
    void the_shard_of_a_partition_is_the_crc32_of_its_code_modulo_the_shard_count() {
        assertThat(ShardedTaskStore.shardOf(Partition.regular("emails"), 8)).isEqualTo(2);
        assertThat(ShardedTaskStore.shardOf(Partition.ordered("account-42"), 8)).isEqualTo(1);
        assertThat(ShardedTaskStore.shardOf(Partition.regular("orders-eu"), 8)).isEqualTo(6);
        assertThat(ShardedTaskStore.shardOf(Partition.regular("orders-eu"), 3)).isEqualTo(1);
        assertThat(ONE_PER_SHARD).extracting(store::shardOf).containsExactly(0, 1, 2, 3);
    }

    @Test
    void every_task_of_a_partition_lands_on_its_one_shard_and_keeps_its_order() {
        Partition account = Partition.ordered("account-42");
        for (int batch = 0; batch < 3; batch++) {
            int first = batch * 3;
            store.publish(IntStream.range(first, first + 3).mapToObj(i -> task("t" + i, account)).toList());
        }

        assertThat(IntStream.range(0, 4).mapToLong(i -> shard(i).stats().ready())).containsExactly(0L, 9L, 0L, 0L);
        List<String> taken = new ArrayList<>();
        List<Lease> batch;
        while (!(batch = store.consume(WORKER, 4, Duration.ZERO)).isEmpty()) {
            assertThat(store.consume(ConsumerId.of("other"), 4, Duration.ZERO)).as("the lock holds").isEmpty();
            taken.addAll(ids(batch));
            store.ack(WORKER, batch.stream().map(Lease::id).toList());
        }
        assertThat(taken).containsExactly("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8");
    }

    @Test
    void many_partitions_spread_over_every_shard() {
        store.publish(IntStream.range(0, 100).mapToObj(i -> task("t" + i, Partition.regular("customer-" + i))).toList());

        assertThat(IntStream.range(0, 4).mapToLong(i -> shard(i).stats().activePartitions()))
                .allSatisfy(partitions -> assertThat(partitions).isBetween(10L, 40L));
        assertThat(store.stats().activePartitions()).isEqualTo(100);
    }

    @Test
    void consumers_take_the_shards_in_turn() {
        for (Partition partition : ONE_PER_SHARD) {
            store.publish(List.of(task(partition.code() + "-1", partition), task(partition.code() + "-2", partition)));
        }

        List<String> firstRound = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            firstRound.addAll(ids(store.consume(WORKER, 1, Duration.ZERO)));
        }

        assertThat(firstRound).containsExactly("p4-1", "p0-1", "emails-1", "a-1");
    }

    @Test
    void a_consume_fills_up_from_the_following_shards() {
        ONE_PER_SHARD.forEach(partition -> store.publish(List.of(task(partition.code(), partition))));

        assertThat(ids(store.consume(WORKER, 10, Duration.ZERO))).containsExactlyInAnyOrder("p4", "p0", "emails", "a");
    }

    @Test
    void a_waiting_consume_wakes_for_work_on_any_shard() throws Exception {
        ShardedTaskStore slow = slowWaking();
        for (Partition partition : ONE_PER_SHARD) {
            CompletableFuture<Long> tookAt = CompletableFuture.supplyAsync(() -> {
                List<Lease> leases = slow.consume(WORKER, 1, Duration.ofSeconds(20));
                assertThat(leases).hasSize(1);
                return System.nanoTime();
            });
            Thread.sleep(150);
            long publishedAt = System.nanoTime();
            slow.publish(List.of(task("for-" + partition.code(), partition)));

            long latencyMillis = TimeUnit.NANOSECONDS.toMillis(tookAt.get(20, TimeUnit.SECONDS) - publishedAt);
            assertThat(latencyMillis).as("wake on shard " + slow.shardOf(partition)).isLessThan(300);
        }
    }

    @Test
    void a_task_a_shard_wait_takes_after_its_consume_returned_goes_back_for_other_consumers() throws Exception {
        ShardedTaskStore slow = slowWaking();
        CompletableFuture<List<Lease>> first = CompletableFuture.supplyAsync(
                () -> slow.consume(WORKER, 1, Duration.ofSeconds(20)));
        Thread.sleep(150);
        slow.publish(List.of(task("first", ONE_PER_SHARD.get(0))));
        assertThat(ids(first.get(20, TimeUnit.SECONDS))).containsExactly("first");

        // the waits on the other shards outlive that consume: what they take is released, not kept
        slow.publish(List.of(task("second", ONE_PER_SHARD.get(1))));
        List<Lease> second = slow.consume(ConsumerId.of("worker-2"), 1, Duration.ofSeconds(5));

        assertThat(ids(second)).containsExactly("second");
        assertThat(second.get(0).task().attempts()).as("a release counts no attempt").isEqualTo(1);
        assertThat(slow.stats().inFlight()).as("worker-1 holds only its own task").isEqualTo(2);
    }

    @Test
    void two_shards_with_work_at_once_give_a_consume_what_it_asked_and_release_the_rest() throws Exception {
        ShardedTaskStore slow = slowWaking();
        CompletableFuture<List<Lease>> waiting = CompletableFuture.supplyAsync(
                () -> slow.consume(WORKER, 1, Duration.ofSeconds(20)));
        Thread.sleep(150);
        slow.publish(ONE_PER_SHARD.stream().map(partition -> task(partition.code(), partition)).toList());

        assertThat(waiting.get(20, TimeUnit.SECONDS)).hasSize(1);
        List<String> others = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (others.size() < 3 && System.nanoTime() < deadline) {
            others.addAll(ids(slow.consume(ConsumerId.of("worker-2"), 10, Duration.ofMillis(200))));
        }
        assertThat(others).as("every task but the one delivered, for another consumer").hasSize(3);
    }

    @Test
    void acks_go_only_to_the_shard_each_lease_came_from() {
        ONE_PER_SHARD.forEach(partition -> store.publish(List.of(task(partition.code(), partition))));
        List<Lease> leases = store.consume(WORKER, 4, Duration.ZERO);
        forgetCalls();

        Map<TaskId, AckOutcome> outcomes = store.ack(WORKER, leases.stream().map(Lease::id).toList());

        assertThat(outcomes.values()).containsOnly(AckOutcome.ACKED);
        assertThat(calls).allSatisfy(shardCalls -> assertThat(shardCalls).containsExactly("ack"));
    }

    @Test
    void an_id_this_store_did_not_hand_out_is_asked_of_every_shard() {
        store.publish(List.of(task("x", ONE_PER_SHARD.get(2))));
        ShardedTaskStore elsewhere = ShardedTaskStore.create(QUEUE, 4, (queue, index) -> shard(index));
        elsewhere.consume(WORKER, 1, Duration.ZERO);
        forgetCalls();

        assertThat(store.ack(WORKER, List.of(TaskId.of("x")))).containsEntry(TaskId.of("x"), AckOutcome.ACKED);
        assertThat(calls).allSatisfy(shardCalls -> assertThat(shardCalls).containsExactly("ack"));
    }

    @Test
    void routing_still_works_when_the_remembered_routes_overflow() {
        ShardedTaskStore forgetful = ShardedTaskStore.builder(QUEUE, 4, (queue, index) -> shard(index))
                .routeCapacity(1).build();
        ONE_PER_SHARD.forEach(partition -> forgetful.publish(List.of(task(partition.code(), partition))));
        List<Lease> leases = forgetful.consume(WORKER, 4, Duration.ZERO);

        assertThat(forgetful.ack(WORKER, leases.stream().map(Lease::id).toList()).values())
                .hasSize(4).containsOnly(AckOutcome.ACKED);
    }

    @Test
    void a_batch_over_several_shards_is_checked_whole_before_anything_is_written() {
        store.configure(store.settings().toBuilder().maxPayloadBytes(10).build());
        List<NewTask> batch = List.of(task("fine", ONE_PER_SHARD.get(0)),
                NewTask.builder(ONE_PER_SHARD.get(3), new byte[11]).id("too-big").build());

        assertThatThrownBy(() -> store.publish(batch)).isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.field()).isEqualTo("tasks[1].payload"));
        assertThat(store.stats().publishedTotal()).isZero();
        assertThat(IntStream.range(0, 4).mapToObj(i -> shard(i).settings().maxPayloadBytes())).containsOnly(10);
    }

    @Test
    void the_same_id_twice_in_a_batch_over_two_shards_is_created_once() {
        List<PublishReceipt> receipts = store.publish(List.of(task("x", ONE_PER_SHARD.get(0)),
                task("y", ONE_PER_SHARD.get(1)), task("x", ONE_PER_SHARD.get(2))));

        assertThat(receipts).extracting(PublishReceipt::outcome)
                .containsExactly(PublishOutcome.CREATED, PublishOutcome.CREATED, PublishOutcome.DUPLICATE);
        assertThat(store.stats().publishedTotal()).isEqualTo(2);
        assertThat(shard(2).stats().publishedTotal()).isZero();
    }

    @Test
    void stats_add_up_the_shards() {
        ONE_PER_SHARD.forEach(partition -> store.publish(List.of(task(partition.code(), partition))));
        clock.advance(Duration.ofSeconds(3));
        store.publish(List.of(task("late", ONE_PER_SHARD.get(1))));
        store.consume(WORKER, 1, Duration.ZERO);
        store.heartbeat(ConsumerId.of("worker-2"), Duration.ofMinutes(1));
        store.blockPartition(ONE_PER_SHARD.get(3), Duration.ofMinutes(1));

        QueueStats stats = store.stats();

        assertThat(stats.ready()).isEqualTo(4);
        assertThat(stats.inFlight()).isEqualTo(1);
        assertThat(stats.publishedTotal()).isEqualTo(5);
        assertThat(stats.activePartitions()).as("p4 emptied by the consume").isEqualTo(3);
        assertThat(stats.blockedPartitions()).isEqualTo(1);
        assertThat(stats.liveConsumers()).as("each counted once: the most on any shard").isEqualTo(2);
        assertThat(stats.oldestDueAgeMillis()).as("the oldest over all shards").isEqualTo(3_000);
        assertThat(IntStream.range(0, 4).mapToLong(i -> shard(i).stats().blockedPartitions())).containsExactly(0L, 0L, 0L, 1L);
    }

    @Test
    void an_inspection_sorts_and_cuts_the_shards_lists_again_and_sums_their_totals() {
        for (int i = 0; i < ONE_PER_SHARD.size(); i++) {
            Partition partition = ONE_PER_SHARD.get(i);
            store.publish(IntStream.rangeClosed(0, i).mapToObj(n -> task(partition.code() + "-" + n, partition)).toList());
        }
        store.blockPartition(ONE_PER_SHARD.get(0), Duration.ofSeconds(20));
        store.blockPartition(ONE_PER_SHARD.get(2), Duration.ofSeconds(10));

        QueueInspection inspection = store.inspect(2);

        assertThat(inspection.busiestPartitions()).containsExactly(new PartitionBacklog(ONE_PER_SHARD.get(3), 4, 4),
                new PartitionBacklog(ONE_PER_SHARD.get(2), 3, 3));
        assertThat(inspection.totalPartitions()).isEqualTo(4);
        assertThat(inspection.blocks()).extracting(PartitionBlock::partition)
                .containsExactly(ONE_PER_SHARD.get(2), ONE_PER_SHARD.get(0));
        assertThat(inspection.totalBlocks()).isEqualTo(2);
        assertThat(store.inspect(1).blocks()).extracting(PartitionBlock::partition).containsExactly(ONE_PER_SHARD.get(2));
    }

    @Test
    void an_inspection_lists_a_consumer_of_every_shard_once_with_its_tasks_of_all_shards() {
        ONE_PER_SHARD.forEach(partition -> store.publish(List.of(task(partition.code(), partition))));
        long start = clock.millis();
        store.heartbeat(WORKER, Duration.ofMinutes(1));
        clock.advance(Duration.ofSeconds(1));
        store.consume(WORKER, 3, Duration.ZERO);

        QueueInspection inspection = store.inspect(10);

        assertThat(inspection.consumers()).containsExactly(new ConsumerPresence(WORKER,
                Instant.ofEpochMilli(start + 1_000), Instant.ofEpochMilli(start + 60_000), true, 3));
        assertThat(inspection.totalConsumers()).isEqualTo(1);
    }

    @Test
    void with_more_consumers_than_the_limit_the_consumers_total_is_the_largest_shards() {
        List.of("w1", "w2", "w3").forEach(name -> store.heartbeat(ConsumerId.of(name), Duration.ofMinutes(1)));

        QueueInspection inspection = store.inspect(1);

        assertThat(inspection.consumers()).extracting(ConsumerPresence::consumer).containsExactly(ConsumerId.of("w1"));
        assertThat(inspection.totalConsumers()).isEqualTo(3);
    }

    @Test
    void a_sharded_factory_lists_the_backends_queues_once_by_name() {
        TaskStoreFactory listing = new TaskStoreFactory() {
            @Override
            public TaskStore forQueue(QueueName queue) {
                return backend.forQueue(queue);
            }

            @Override
            public TaskStore forGroup(QueueName queue, GroupName group) {
                return backend.forGroup(queue, group);
            }

            @Override
            public List<QueueName> knownQueues() {
                return List.of(QueueName.of("b"), QueueName.of("a"), QueueName.of("b"));
            }

            @Override
            public void close() {
            }
        };

        try (ShardedTaskStoreFactory sharded = new ShardedTaskStoreFactory(listing, (queue, index) -> backend.forQueue(queue), 2)) {
            assertThat(sharded.knownQueues()).containsExactly(QueueName.of("a"), QueueName.of("b"));
        }
    }

    @Test
    void pause_and_resume_reach_every_shard() {
        store.pause();
        assertThat(IntStream.range(0, 4).mapToObj(i -> shard(i).stats().paused())).containsOnly(true);
        store.resume();
        assertThat(store.stats().paused()).isFalse();
    }

    @Test
    void dead_letters_of_every_shard_are_merged_oldest_first_and_paged() {
        List<String> died = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Partition partition = ONE_PER_SHARD.get((i * 3) % 4);
            store.publish(List.of(task("d" + i, partition)));
            store.consume(WORKER, 1, Duration.ZERO);
            store.fail(WORKER, List.of(TaskId.of("d" + i)), "broken " + i);
            died.add("d" + i);
            clock.advance(Duration.ofMillis(1));
        }

        List<String> paged = new ArrayList<>();
        DeadLetterPage page;
        int offset = 0;
        while (!(page = store.deadLetters(offset, 3)).items().isEmpty()) {
            assertThat(page.total()).isEqualTo(8);
            page.items().forEach(dead -> paged.add(dead.id().value()));
            offset += 3;
        }
        assertThat(paged).isEqualTo(died);
    }

    @Test
    void reclaim_returns_a_dead_consumers_tasks_of_every_shard_and_names_it_once() {
        ONE_PER_SHARD.forEach(partition -> store.publish(List.of(task(partition.code(), partition))));
        store.consume(WORKER, 4, Duration.ZERO);
        clock.advance(Duration.ofMinutes(1));

        ReclaimReport report = store.reclaim();

        assertThat(report.deadConsumers()).containsExactly(WORKER);
        assertThat(report.returned()).isEqualTo(4);
        assertThat(store.stats().ready()).isEqualTo(4);
    }

    @Test
    void cancel_and_get_find_a_task_on_whichever_shard_holds_it() {
        store.publish(List.of(task("x", ONE_PER_SHARD.get(3))));

        assertThat(store.get(TaskId.of("x"))).isPresent();
        assertThat(store.cancel(List.of(TaskId.of("x"), TaskId.of("nobody"))).values()).extracting(Enum::name)
                .containsExactly("CANCELLED", "UNKNOWN");
        assertThat(store.get(TaskId.of("x"))).isEmpty();
    }

    @Test
    void the_shard_count_is_bounded() {
        assertThatThrownBy(() -> ShardedTaskStore.create(QUEUE, 0, (queue, index) -> shard(index)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("shards");
        assertThatThrownBy(() -> ShardedTaskStore.create(QUEUE, ShardedTaskStore.MAX_SHARDS + 1,
                (queue, index) -> shard(index))).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void a_group_of_a_sharded_queue_is_the_group_of_that_name_on_every_shard() {
        GroupName billing = GroupName.of("billing");
        ShardedTaskStore queue = ShardedTaskStore.builder(QUEUE, 4, (name, index) -> shard(index))
                .groups((name, index, group) -> backend.forGroup(QueueName.of(QUEUE + ".shard-" + index), group))
                .build();

        assertThat(queue.createGroup(billing)).isTrue();
        assertThat(queue.createGroup(billing)).isFalse();
        IntStream.range(0, 4).forEach(i -> assertThat(shard(i).groups()).as("shard " + i).containsExactly(billing));

        ShardedTaskStore group = queue.forGroup(billing);
        assertThat(group.group()).contains(billing);
        group.publish(IntStream.range(0, 4).mapToObj(i -> task("t" + i, ONE_PER_SHARD.get(i))).toList());
        IntStream.range(0, 4).forEach(i -> assertThat(backend.forGroup(QueueName.of(QUEUE + ".shard-" + i), billing)
                .get(TaskId.of("t" + i))).as("shard " + i + "'s group").isPresent());
        assertThat(ids(group.consume(WORKER, 10, Duration.ZERO))).containsExactlyInAnyOrder("t0", "t1", "t2", "t3");
        assertThat(queue.stats().publishedTotal()).as("the queue's own view").isZero();

        assertThat(queue.deleteGroup(billing)).isTrue();
        IntStream.range(0, 4).forEach(i -> assertThat(shard(i).groups()).as("shard " + i).isEmpty());
        assertThat(queue.deleteGroup(billing)).isFalse();
    }

    @Test
    void without_a_group_shard_source_there_are_no_group_stores() {
        GroupName billing = GroupName.of("billing");
        ShardedTaskStoreFactory factory = new ShardedTaskStoreFactory(backend, (name, index) -> shard(index), 4);

        assertThatThrownBy(() -> factory.forGroup(QUEUE, billing)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> store.forGroup(billing)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(factory.forQueue(QUEUE).createGroup(billing)).as("the shards' groups are administered still")
                .isTrue();
    }
}
