package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RetryPolicy;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.codec.JacksonPayloadCodec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A worker on the in-memory store and a virtual clock: payloads are strings (their task ids, by
 * default), every event is recorded, and {@link #close()} stops the worker.
 */
final class WorkerHarness implements AutoCloseable {
    static final ConsumerId CONSUMER = ConsumerId.of("worker-1");
    static final RetryPolicy ONE_TWO_FOUR = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 0.0);

    final VirtualClock clock = new VirtualClock();
    final InMemoryTaskStoreFactory factory = new InMemoryTaskStoreFactory(clock);
    final TaskStore store;
    final Publisher<String> publisher;
    final RecordingListener events = new RecordingListener();
    Scheduler scheduler;
    RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
    WorkerOptions.Builder options = WorkerOptions.builder().consumer(CONSUMER).concurrency(2).prefetch(8)
            .retryPolicy(ONE_TWO_FOUR).fetchWait(Duration.ofMillis(20)).gracePeriod(Duration.ofSeconds(5));
    Worker<String> worker;
    Worker<byte[]> routingWorker;
    /** What every handler run passes through, the first outermost. */
    final List<DeliveryInterceptor> interceptors = new ArrayList<>();
    /** Where the worker logs handler failures and a closed store; the class's logger when null. */
    org.slf4j.Logger log;

    WorkerHarness() {
        this(null);
    }

    /** With a store of the caller's making around the in-memory one (a faulty one, say). */
    WorkerHarness(java.util.function.BiFunction<TaskStore, VirtualClock, TaskStore> wrap) {
        TaskStore inMemory = factory.forQueue(QueueName.of("work"));
        store = wrap == null ? inMemory : wrap.apply(inMemory, clock);
        publisher = new Publisher<>(inMemory, new JacksonPayloadCodec());
    }

    /** Heartbeats, the reaper and backoff pauses run on the virtual clock, moved by the returned scheduler. */
    VirtualScheduler onVirtualTime() {
        VirtualScheduler virtual = new VirtualScheduler(clock);
        scheduler = virtual;
        return virtual;
    }

    WorkerHarness maxAttempts(int maxAttempts) {
        store.configure(store.settings().toBuilder().maxAttempts(maxAttempts).build());
        return this;
    }

    WorkerHarness settings(QueueSettings settings) {
        store.configure(settings);
        return this;
    }

    /** Publishes one task per id into the partition, in order; each payload is its id. */
    void publish(Partition partition, String... ids) {
        List<Publication<String>> publications = new ArrayList<>();
        for (String id : ids) {
            publications.add(Publication.of(partition, id).withId(id));
        }
        publisher.publishAll(publications);
    }

    /** Publishes one task whose payload is its id, with a processing timeout of its own. */
    void publishWithTimeout(Partition partition, String id, Duration timeout) {
        store.publish(List.of(NewTask.builder(partition, new JacksonPayloadCodec().encode(id)).id(id).timeout(timeout)
                .build()));
    }

    Worker<String> start(TaskHandler<String> handler) {
        if (scheduler == null) {
            scheduler = Scheduler.system();
        }
        Worker.Builder<String> builder = Worker.builder(store, String.class, handler).options(options.build())
                .clock(clock).random(random).scheduler(scheduler).listener(events);
        interceptors.forEach(builder::interceptor);
        if (log != null) {
            builder.log(log);
        }
        worker = builder.build();
        worker.start();
        return worker;
    }

    /** A worker that routes by type with {@code router}, with the harness's options, clock and listener. */
    Worker<byte[]> startRouting(TaskRouter router) {
        if (scheduler == null) {
            scheduler = Scheduler.system();
        }
        routingWorker = Worker.routing(store, router).options(options.build()).clock(clock).random(random)
                .scheduler(scheduler).listener(events).build();
        routingWorker.start();
        return routingWorker;
    }

    TaskSnapshot get(String id) {
        return store.get(TaskId.of(id)).orElseThrow(() -> new AssertionError("no task " + id));
    }

    boolean isGone(String id) {
        return store.get(TaskId.of(id)).isEmpty();
    }

    boolean isWaiting(String id) {
        return store.get(TaskId.of(id)).map(TaskSnapshot::state)
                .filter(state -> state == TaskState.PENDING || state == TaskState.DELAYED).isPresent();
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.stop();
        }
        if (routingWorker != null) {
            routingWorker.stop();
        }
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
