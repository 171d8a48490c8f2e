package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.ports.Rejection;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer already waiting (on real time, where a Redis store naps until a signal or the earliest due
 * time it knew of) wakes promptly when a change makes a task deliverable: a block ending or lifted, a
 * resume, an ordered partition's lock released, a reclaim. The waits start before the change, with nothing
 * due in sight, so only a wake-up can shorten them. (Publish and delays: RedisBackendKit.BlockingConsume.)
 */
@ExtendWith(RedisServerExtension.class)
public abstract class RedisWakeUpKit {
    private static final ConsumerId WAITER = ConsumerId.of("waiter");
    private static final ConsumerId HOLDER = ConsumerId.of("holder");
    private static final Duration LONG_WAIT = Duration.ofSeconds(20);
    /** Far above a correct store's few milliseconds, far below the wait, on a shared machine. */
    private static final long PROMPTLY_MILLIS = 1_500;

    private RedisTaskStoreFactory factory;
    private TaskStore store;

    /** The backend's store factory. */
    protected abstract RedisTaskStoreFactory createFactory(RedisOptions options);

    @BeforeEach
    void connect(RedisServer server) {
        factory = createFactory(RedisOptions.create(server.uri()));
        store = factory.forQueue(QueueName.of("wake-" + UUID.randomUUID()));
    }

    @AfterEach
    void closeClient() {
        factory.close();
    }

    @Test
    void a_block_set_while_a_consumer_waits_ends_and_the_consumer_takes_the_task() throws Exception {
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(200);
        store.blockPartition(Partition.of("p"), Duration.ofMillis(300));
        long blockedAt = System.nanoTime();
        store.publish(List.of(task("p", "blocked-1")));

        long waited = TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - blockedAt);
        assertThat(waited).isBetween(250L, 300L + PROMPTLY_MILLIS);
    }

    @Test
    void a_block_lifted_wakes_the_waiting_consumer() throws Exception {
        store.blockPartition(Partition.of("p"), Duration.ofMinutes(1));
        store.publish(List.of(task("p", "blocked-1")));
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(200);
        long liftedAt = System.nanoTime();
        store.unblockPartition(Partition.of("p"));

        assertThat(TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - liftedAt))
                .isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void a_resume_wakes_the_waiting_consumer() throws Exception {
        store.pause();
        store.publish(List.of(task("p", "paused-1")));
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(200);
        long resumedAt = System.nanoTime();
        store.resume();

        assertThat(TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - resumedAt))
                .isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void an_ordered_lock_released_wakes_the_waiting_consumer() throws Exception {
        store.publish(List.of(task("!o", "first")));
        List<Lease> held = store.consume(HOLDER, 1, Duration.ZERO);
        store.publish(List.of(task("!o", "second")));
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(200);
        long releasedAt = System.nanoTime();
        store.ack(HOLDER, held.stream().map(Lease::id).toList());

        assertThat(TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - releasedAt))
                .isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void a_reclaim_wakes_the_waiting_consumer() throws Exception {
        store.configure(QueueSettings.builder().heartbeatTtl(Duration.ofSeconds(1)).build());
        store.publish(List.of(task("p", "crashed-1")));
        assertThat(store.consume(HOLDER, 1, Duration.ZERO)).hasSize(1);
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(1_200); // the holder's heartbeat runs out
        long reclaimedAt = System.nanoTime();
        assertThat(store.reclaim().returned()).isEqualTo(1);

        assertThat(TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - reclaimedAt))
                .isLessThan(PROMPTLY_MILLIS);
    }

    @Test
    void a_block_from_a_rejection_ends_and_the_waiting_consumer_takes_the_task() throws Exception {
        store.publish(List.of(task("p", "limited-1")));
        List<Lease> held = store.consume(HOLDER, 1, Duration.ZERO);
        CompletableFuture<Long> tookAt = waitForOneTask();
        Thread.sleep(200);
        long rejectedAt = System.nanoTime();
        store.reject(HOLDER, held.stream().map(Lease::id).toList(),
                Rejection.rateLimited(Duration.ofMillis(300), "slow down"));

        long waited = TimeUnit.NANOSECONDS.toMillis(tookAt.get(10, TimeUnit.SECONDS) - rejectedAt);
        assertThat(waited).isBetween(250L, 300L + PROMPTLY_MILLIS);
    }

    /** A consumer that starts waiting now, on a queue with nothing for it; completes when it took one task. */
    private CompletableFuture<Long> waitForOneTask() {
        return CompletableFuture.supplyAsync(() -> {
            List<Lease> leases = store.consume(WAITER, 1, LONG_WAIT);
            assertThat(leases).hasSize(1);
            return System.nanoTime();
        });
    }

    private static NewTask task(String partition, String id) {
        return NewTask.builder(Partition.of(partition), new byte[] {1}).id(id).build();
    }
}
