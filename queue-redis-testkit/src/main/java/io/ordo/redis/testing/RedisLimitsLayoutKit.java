package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.KeySchema;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How caps and rate limits lie in Redis (docs/redis-design.md, "Keys"): each partition's count and bucket in
 * one field of `inflight`, a hash table, not a listpack; a count written before buckets joined it still counts,
 * and the buckets kept apart before then are dropped when the limits change.
 */
@ExtendWith(RedisServerExtension.class)
public abstract class RedisLimitsLayoutKit {
    private static final ConsumerId WORKER = ConsumerId.of("worker-1");
    /** One token a minute, at most two kept: a bucket holds 60,000 units a token. */
    private static final RateLimit ONE_A_MINUTE = RateLimit.of(1, Duration.ofMinutes(1)).withBurst(2);

    private final QueueName queue = QueueName.of("limits-layout-" + UUID.randomUUID());
    private final KeySchema keys = KeySchema.of(queue);
    private final VirtualClock clock = new VirtualClock();
    private RedisServer server;
    private RedisTaskStoreFactory factory;
    private TaskStore store;

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @BeforeEach
    void openStore(RedisServer shared) {
        server = shared;
        factory = createFactory(RedisOptions.create(server.uri()));
        store = factory.forQueue(queue, clock);
    }

    @AfterEach
    void closeStore() {
        factory.close();
    }

    @Test
    void counts_and_buckets_share_one_hash_table() {
        store.configure(QueueSettings.builder().partitionConcurrency(5).queueConcurrency(100)
                .partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 3);
        publish("b", 3);

        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("each partition's two tokens").hasSize(4);

        assertThat(server.command("OBJECT", "ENCODING", keys.key("inflight"))).isEqualTo("hashtable");
        assertThat(server.command("HLEN", keys.key("inflight"))).as("a, b and the queue's count").isEqualTo(3L);
        assertThat(server.command("EXISTS", keys.key("buckets"))).isEqualTo(0L);
        assertThat(store.stats().throttledPartitions()).isEqualTo(2);
    }

    @Test
    void buckets_alone_are_a_hash_table_too() {
        store.configure(QueueSettings.builder().partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 3);

        assertThat(store.consume(WORKER, 10, Duration.ZERO)).hasSize(2);

        assertThat(server.command("OBJECT", "ENCODING", keys.key("inflight"))).isEqualTo("hashtable");
        assertThat(store.stats().throttledPartitions()).isEqualTo(1);
    }

    @Test
    void a_count_written_before_buckets_joined_it_still_counts() {
        store.configure(QueueSettings.builder().partitionConcurrency(2).partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 3);
        String code = (String) ((List<?>) server.command("ZRANGE", keys.key("ready"), "0", "-1")).get(0);
        // one task in flight, as a store before buckets joined the counts wrote it: a decimal count
        server.command("HSET", keys.key("inflight"), code, "1");

        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("one slot left of two").hasSize(1);
        assertThat(store.stats().cappedPartitions()).isEqualTo(1);
    }

    @Test
    void buckets_kept_apart_before_are_dropped_when_the_limits_change() {
        store.configure(QueueSettings.builder().partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 3);
        String code = (String) ((List<?>) server.command("ZRANGE", keys.key("ready"), "0", "-1")).get(0);
        // an empty bucket, as a store before buckets joined the counts kept it
        server.command("HSET", keys.key("buckets"), code, "0:" + clock.millis());

        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("a full bucket: the old one is not read").hasSize(2);
        store.configure(QueueSettings.builder().partitionRateLimit(ONE_A_MINUTE).partitionConcurrency(5).build());
        assertThat(server.command("EXISTS", keys.key("buckets"))).isEqualTo(0L);
        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("the bucket kept through the change").isEmpty();
    }

    private void publish(String partition, int count) {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(NewTask.builder(Partition.of(partition), new byte[8]).id(partition + "-" + i).build());
        }
        store.publish(batch);
    }
}
