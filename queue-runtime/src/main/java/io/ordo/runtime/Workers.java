package io.ordo.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.Validate;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.metrics.QueueGauges;
import io.ordo.runtime.metrics.WorkerMetrics;
import io.ordo.runtime.worker.DeliveryInterceptor;
import io.ordo.runtime.worker.Scheduler;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerListener;
import io.ordo.runtime.worker.WorkerOptions;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Makes publishers and workers for any queue of one backend, each with the codec, clock,
 * randomness and scheduler of the application, and each worker with its metrics. Get it from
 * {@link RuntimeModule}:
 *
 * <pre>{@code
 * Injector injector = Guice.createInjector(backendModule, new RuntimeModule(meterRegistry));
 * Workers workers = injector.getInstance(Workers.class);
 * Worker<Deposit> worker = workers.worker(QueueName.of("deposits"), Deposit.class, handler, WorkerOptions.create());
 * worker.start();
 * }</pre>
 */
public final class Workers {
    private final TaskStoreFactory stores;
    private final PayloadCodec codec;
    private final Clock clock;
    private final RandomGenerator random;
    private final Scheduler scheduler;
    private final MeterRegistry registry;
    private final List<PublishInterceptor> publishInterceptors;
    private final List<DeliveryInterceptor> deliveryInterceptors;

    public Workers(TaskStoreFactory stores, PayloadCodec codec, Clock clock, RandomGenerator random,
                   Scheduler scheduler, MeterRegistry registry) {
        this(stores, codec, clock, random, scheduler, registry, List.of(), List.of());
    }

    /** Every publisher's batches pass through {@code publishInterceptors}, every worker's handler runs through {@code deliveryInterceptors}. */
    public Workers(TaskStoreFactory stores, PayloadCodec codec, Clock clock, RandomGenerator random,
                   Scheduler scheduler, MeterRegistry registry, List<PublishInterceptor> publishInterceptors,
                   List<DeliveryInterceptor> deliveryInterceptors) {
        this.stores = Validate.notNull("stores", stores);
        this.codec = Validate.notNull("codec", codec);
        this.clock = Validate.notNull("clock", clock);
        this.random = Validate.notNull("random", random);
        this.scheduler = Validate.notNull("scheduler", scheduler);
        this.registry = Validate.notNull("registry", registry);
        this.publishInterceptors = List.copyOf(Validate.notNull("publishInterceptors", publishInterceptors));
        this.deliveryInterceptors = List.copyOf(Validate.notNull("deliveryInterceptors", deliveryInterceptors));
    }

    /** The store of a queue, for everything the worker and publisher do not cover. */
    public TaskStore store(QueueName queue) {
        return stores.forQueue(queue);
    }

    public <T> Publisher<T> publisher(QueueName queue) {
        return new Publisher<>(stores.forQueue(queue), codec, publishInterceptors);
    }

    /** The store of a consumer group of a queue (docs/groups.md). */
    public TaskStore store(QueueName queue, GroupName group) {
        return stores.forGroup(queue, group);
    }

    /** A worker for the queue (not started), reporting to the registry and to the extra listeners. */
    public <T> Worker<T> worker(QueueName queue, Class<T> type, TaskHandler<? super T> handler, WorkerOptions options,
                                WorkerListener... listeners) {
        return worker(stores.forQueue(queue), type, handler, options, listeners);
    }

    /**
     * A worker for a consumer group of the queue (not started): it takes the group's tasks, and its metrics
     * carry the group's name (docs/groups.md).
     */
    public <T> Worker<T> worker(QueueName queue, GroupName group, Class<T> type, TaskHandler<? super T> handler,
                                WorkerOptions options, WorkerListener... listeners) {
        return worker(stores.forGroup(queue, group), type, handler, options, listeners);
    }

    private <T> Worker<T> worker(TaskStore store, Class<T> type, TaskHandler<? super T> handler, WorkerOptions options,
                                 WorkerListener... listeners) {
        WorkerMetrics metrics = new WorkerMetrics(registry, store);
        Worker.Builder<T> builder = Worker.builder(store, type, handler).options(options).codec(codec).clock(clock)
                .random(random).scheduler(scheduler).listener(metrics)
                .listener(new QueueGauges(registry, store, scheduler, QueueGauges.DEFAULT_REFRESH_INTERVAL));
        deliveryInterceptors.forEach(builder::interceptor);
        for (WorkerListener listener : listeners) {
            builder.listener(listener);
        }
        Worker<T> worker = builder.build();
        metrics.bindWorkerGauges(worker);
        return worker;
    }
}
