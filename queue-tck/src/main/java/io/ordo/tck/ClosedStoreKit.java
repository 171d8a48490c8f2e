package io.ordo.tck;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.ports.Rejection;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store whose factory was closed fails with Ordo's own {@link StoreClosedException}, on every call
 * and on every backend, instead of a client library's exception or a retryable outage; a consume
 * waiting when the factory closes ends at once with it. A backend's test extends this class.
 */
public abstract class ClosedStoreKit {
    private static final ConsumerId CONSUMER = ConsumerId.of("worker");
    private static final List<TaskId> IDS = List.of(TaskId.of("t1"));
    private static final Duration WAIT = Duration.ofSeconds(2);
    /** Far longer than a store takes to notice the close once its wait is over. */
    private static final long MARGIN_MILLIS = 3_000;

    private TaskStoreFactory factory;
    private QueueName queue;
    private TaskStore store;

    /** A fresh factory on the backend under test, reading time from {@code clock} where it can. */
    protected abstract TaskStoreFactory openFactory(VirtualClock clock);

    @BeforeEach
    void openAStore() {
        factory = openFactory(new VirtualClock());
        queue = QueueName.of("tck-closed-" + UUID.randomUUID());
        store = factory.forQueue(queue);
        store.publish(List.of(NewTask.builder(Partition.regular("p"), new byte[] {1}).id("t1").build()));
    }

    @AfterEach
    void closeTheFactory() {
        factory.close();
    }

    @Test
    void every_call_of_a_store_whose_factory_was_closed_throws_store_closed() {
        factory.close();

        everyOperation().forEach((name, call) -> assertThatThrownBy(call).as(name)
                .isInstanceOf(StoreClosedException.class).hasMessageContaining("closed"));
        assertThatThrownBy(() -> factory.forQueue(queue)).as("forQueue").isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> factory.knownQueues()).as("knownQueues").isInstanceOf(StoreClosedException.class);
    }

    @Test
    void a_consume_waiting_when_the_factory_closes_ends_with_store_closed_by_the_end_of_its_wait() throws Exception {
        store.consume(CONSUMER, 1, Duration.ZERO); // takes t1: nothing left, so the next consume waits
        CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(
                () -> store.consume(ConsumerId.of("waiting"), 1, WAIT));
        Thread.sleep(300); // the consume is waiting by now

        factory.close();

        // the in-memory and Lettuce stores end it at once; Jedis's blocking wait ends when its time is up
        assertThatThrownBy(() -> waiting.get(WAIT.toMillis() + MARGIN_MILLIS, TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(StoreClosedException.class);
    }

    private Map<String, ThrowingCallable> everyOperation() {
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        Partition partition = Partition.regular("p");
        calls.put("publish", () -> store.publish(List.of(NewTask.builder(partition, new byte[] {2}).id("t2").build())));
        calls.put("consume", () -> store.consume(CONSUMER, 1, Duration.ZERO));
        calls.put("ack", () -> store.ack(CONSUMER, IDS));
        calls.put("ackAndConsume", () -> store.ackAndConsume(CONSUMER, IDS, 1, Duration.ZERO));
        calls.put("reject", () -> store.reject(CONSUMER, IDS, Rejection.retryNow("r")));
        calls.put("fail", () -> store.fail(CONSUMER, IDS, "r"));
        calls.put("release", () -> store.release(CONSUMER, IDS));
        calls.put("blockPartition", () -> store.blockPartition(partition, Duration.ofSeconds(1)));
        calls.put("unblockPartition", () -> store.unblockPartition(partition));
        calls.put("heartbeat", () -> store.heartbeat(CONSUMER, Duration.ofSeconds(1)));
        calls.put("reclaim", () -> store.reclaim());
        calls.put("trimDeadLetters", () -> store.trimDeadLetters());
        calls.put("cancel", () -> store.cancel(IDS));
        calls.put("get", () -> store.get(IDS.get(0)));
        calls.put("deadLetters", () -> store.deadLetters(0, 10));
        calls.put("redrive", () -> store.redrive(IDS));
        calls.put("redriveAll", () -> store.redriveAll());
        calls.put("purgeDeadLetters", () -> store.purgeDeadLetters(IDS));
        calls.put("purgeAllDeadLetters", () -> store.purgeAllDeadLetters());
        calls.put("stats", () -> store.stats());
        calls.put("inspect", () -> store.inspect(10));
        calls.put("pause", () -> store.pause());
        calls.put("resume", () -> store.resume());
        calls.put("settings", () -> store.settings());
        calls.put("configure", () -> store.configure(QueueSettings.DEFAULTS));
        return calls;
    }
}
