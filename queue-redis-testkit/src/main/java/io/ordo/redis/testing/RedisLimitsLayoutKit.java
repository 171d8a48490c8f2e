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
 * How caps and rate limits lie in Redis (docs/redis-design.md, "Keys"): `inflight` and `buckets` are hash
 * tables, not listpacks, and a bucket written as `units:at` text before buckets were binary still counts.
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
    void in_flight_counts_and_buckets_are_hash_tables_once_written() {
        store.configure(QueueSettings.builder().partitionConcurrency(5).queueConcurrency(100)
                .partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 2);
        publish("b", 2);

        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("each partition's two tokens").hasSize(4);

        assertThat(server.command("OBJECT", "ENCODING", keys.key("inflight"))).isEqualTo("hashtable");
        assertThat(server.command("OBJECT", "ENCODING", keys.key("buckets"))).isEqualTo("hashtable");
    }

    @Test
    void a_bucket_written_as_text_before_buckets_were_binary_still_counts() {
        store.configure(QueueSettings.builder().partitionRateLimit(ONE_A_MINUTE).build());
        publish("a", 3);
        String code = (String) ((List<?>) server.command("ZRANGE", keys.key("ready"), "0", "-1")).get(0);
        // one token left (of two), as a store before binary buckets wrote it
        server.command("HSET", keys.key("buckets"), code, "60000:" + clock.millis());

        List<Lease> first = store.consume(WORKER, 10, Duration.ZERO);
        List<Lease> second = store.consume(WORKER, 10, Duration.ZERO);

        assertThat(first).as("the one token left").hasSize(1);
        assertThat(second).as("no token until a minute has passed").isEmpty();
        assertThat(store.stats().throttledPartitions()).isEqualTo(1);
        clock.advance(Duration.ofMinutes(1));
        assertThat(store.consume(WORKER, 10, Duration.ZERO)).as("the token of the next minute").hasSize(1);
    }

    private void publish(String partition, int count) {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(NewTask.builder(Partition.of(partition), new byte[8]).id(partition + "-" + i).build());
        }
        store.publish(batch);
    }
}
