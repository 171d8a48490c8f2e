package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.TaskStore;
import io.ordo.redis.KeySchema;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.sharding.ShardedTaskStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a Redis Cluster changes, on a private three-master cluster: a queue in one slot, queues and
 * shards spread over the masters, redirects when a slot moves, waits and scripts on the right node.
 * A backend's test extends this and supplies its store factory; the contract itself runs in
 * {@link RedisDeploymentContractKit} and {@link ShardedClusterContractKit}.
 */
@ExtendWith(RedisDeploymentExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisClusterKit {
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");

    private final RedisCluster cluster;
    private RedisTaskStoreFactory factory;

    protected RedisClusterKit(RedisCluster cluster) {
        this.cluster = cluster;
    }

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    private RedisTaskStoreFactory factory() {
        if (factory == null) {
            factory = createFactory(RedisOptions.create(cluster.uri()));
        }
        return factory;
    }

    @AfterAll
    void closeFactory() {
        if (factory != null) {
            factory.close();
        }
    }

    private static QueueName freshQueue() {
        return QueueName.of("cluster-" + UUID.randomUUID());
    }

    private static NewTask task(Partition partition, String id) {
        return NewTask.builder(partition, id.getBytes(StandardCharsets.UTF_8)).id(id).build();
    }

    private static List<String> ids(List<Lease> leases) {
        return leases.stream().map(lease -> lease.id().value()).toList();
    }

    /** The nodes that hold at least one key starting with the prefix (KEYS on a cluster node sees its own). */
    private Set<Integer> nodesHolding(String prefix) {
        Set<Integer> ports = new TreeSet<>();
        for (RedisServer node : cluster.nodes()) {
            if (!((List<?>) node.command("KEYS", prefix + "*")).isEmpty()) {
                ports.add(node.port());
            }
        }
        return ports;
    }

    @Test
    void every_key_of_a_queue_lives_on_one_node_and_queues_spread_over_every_node() {
        List<QueueName> queues = IntStream.range(0, 30).mapToObj(i -> freshQueue()).toList();
        for (QueueName queue : queues) {
            TaskStore store = factory().forQueue(queue);
            store.publish(List.of(task(Partition.ordered("o"), "a"), task(Partition.regular("r"), "b")));
            store.consume(WORKER, 1, Duration.ZERO);
        }

        Set<Integer> used = new TreeSet<>();
        for (QueueName queue : queues) {
            Set<Integer> holding = nodesHolding(KeySchema.of(queue).prefix());
            assertThat(holding).as("nodes holding keys of " + queue).hasSize(1);
            used.addAll(holding);
        }
        assertThat(used).as("30 queues over three masters").hasSize(RedisCluster.MASTERS);
    }

    @Test
    void a_queue_whose_slot_moves_to_another_node_keeps_working() {
        QueueName queue = freshQueue();
        TaskStore store = factory().forQueue(queue);
        store.publish(IntStream.range(0, 6).mapToObj(i -> task(Partition.ordered("account"), "t" + i)).toList());
        List<Lease> before = store.consume(WORKER, 3, Duration.ZERO);
        int slot = cluster.slotOf(KeySchema.of(queue).key("meta"));
        RedisServer from = cluster.owner(slot);
        RedisServer to = cluster.nodes().stream().filter(node -> node != from).findFirst().orElseThrow();

        cluster.moveSlot(slot, to);

        // the client still sends to the old owner, which answers MOVED: the client follows and learns the map
        Map<?, AckOutcome> acked = store.ack(WORKER, before.stream().map(Lease::id).toList());
        List<Lease> after = store.consume(WORKER, 10, Duration.ZERO);
        assertThat(cluster.owner(slot)).isSameAs(to);
        assertThat(acked.values()).containsOnly(AckOutcome.ACKED);
        assertThat(ids(before)).containsExactly("t0", "t1", "t2");
        assertThat(ids(after)).containsExactly("t3", "t4", "t5");
        assertThat(nodesHolding(KeySchema.of(queue).prefix())).containsExactly(to.port());
    }

    @Test
    void a_waiting_consumer_wakes_within_milliseconds_of_a_publish() throws Exception {
        TaskStore store = factory().forQueue(freshQueue());
        store.consume(WORKER, 1, Duration.ZERO);
        CompletableFuture<Long> tookAt = CompletableFuture.supplyAsync(() -> {
            assertThat(store.consume(WORKER, 1, Duration.ofSeconds(10))).hasSize(1);
            return System.nanoTime();
        });
        Thread.sleep(300);
        long publishedAt = System.nanoTime();
        store.publish(List.of(task(Partition.regular("p"), "a")));

        assertThat(TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - publishedAt)).isLessThan(250);
    }

    @Test
    void functions_flushed_on_every_node_are_loaded_again_where_needed() {
        TaskStore store = factory().forQueue(freshQueue());
        store.publish(List.of(task(Partition.regular("p"), "a")));
        cluster.nodes().forEach(node -> node.command("FUNCTION", "FLUSH"));

        assertThat(ids(store.consume(WORKER, 1, Duration.ZERO))).containsExactly("a");
    }

    @Test
    void the_shards_of_a_sharded_queue_spread_over_the_nodes_and_drain_together() {
        QueueName queue = QueueName.of("orders"); // {orders#0}..{orders#11} hash to slots of all three masters
        int shards = 12;
        ShardedTaskStore store = ShardedTaskStore.create(queue, shards, factory()::forShard);
        List<Partition> accounts = IntStream.range(0, 40).mapToObj(i -> Partition.ordered("account-" + i)).toList();
        for (int round = 0; round < 3; round++) {
            int r = round;
            store.publish(accounts.stream().map(account -> task(account, account.code() + "/" + r)).toList());
        }

        Set<Integer> used = new TreeSet<>();
        for (int shard = 0; shard < shards; shard++) {
            Set<Integer> holding = nodesHolding(KeySchema.forShard(queue, shard).prefix());
            assertThat(holding).as("nodes holding shard " + shard).hasSizeLessThanOrEqualTo(1);
            used.addAll(holding);
        }
        assertThat(used).as("twelve shards over three masters").hasSize(RedisCluster.MASTERS);
        assertThat(store.stats().ready()).isEqualTo(120);

        List<String> taken = new ArrayList<>();
        List<Lease> batch;
        while (!(batch = store.consume(WORKER, 50, Duration.ZERO)).isEmpty()) {
            taken.addAll(ids(batch));
            assertThat(store.ack(WORKER, batch.stream().map(Lease::id).toList()).values()).containsOnly(AckOutcome.ACKED);
        }
        assertThat(taken).hasSize(120);
        for (Partition account : accounts) {
            assertThat(taken.stream().filter(id -> id.startsWith(account.code() + "/")).collect(Collectors.toList()))
                    .containsExactly(account.code() + "/0", account.code() + "/1", account.code() + "/2");
        }
        assertThat(store.stats().ackedTotal()).isEqualTo(120);
    }

    @Test
    void known_queues_are_read_from_every_master_and_a_sharded_queue_is_listed_once() {
        List<QueueName> queues = IntStream.range(0, 12).mapToObj(i -> freshQueue()).toList();
        queues.forEach(queue -> factory().forQueue(queue).publish(List.of(task(Partition.regular("p"), "a"))));
        QueueName sharded = freshQueue();
        for (int shard = 0; shard < 6; shard++) {
            factory().forShard(sharded, shard).publish(List.of(task(Partition.regular("p"), "a")));
        }
        Set<Integer> nodes = new TreeSet<>();
        queues.forEach(queue -> nodes.addAll(nodesHolding(KeySchema.of(queue).prefix())));

        List<QueueName> known = factory().knownQueues();

        assertThat(nodes).as("twelve queues over three masters").hasSizeGreaterThan(1);
        assertThat(known).containsAll(queues).contains(sharded).doesNotHaveDuplicates()
                .isSortedAccordingTo(java.util.Comparator.comparing(QueueName::value));
    }

    @Test
    void a_cluster_that_cannot_be_reached_gives_a_retryable_error_naming_its_seeds() {
        RedisOptions nowhere = RedisOptions.builder("redis-cluster://127.0.0.1:1,127.0.0.1:2")
                .connectTimeout(Duration.ofSeconds(1)).retryBackoff(Duration.ofMillis(10)).build();
        try (RedisTaskStoreFactory unreachable = createFactory(nowhere)) {
            assertThatThrownBy(() -> unreachable.forQueue(freshQueue()).stats())
                    .isInstanceOf(QueueUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:1,127.0.0.1:2");
        }
    }
}
