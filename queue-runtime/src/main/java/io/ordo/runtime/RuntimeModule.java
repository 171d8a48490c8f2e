package io.ordo.runtime;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.ordo.ports.Clock;
import io.ordo.ports.PayloadCodec;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.codec.JacksonPayloadCodec;
import io.ordo.runtime.worker.DeliveryInterceptor;
import io.ordo.runtime.worker.Scheduler;

import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Wires {@link Workers} on top of a backend's module: the backend binds the {@link TaskStoreFactory}
 * and a {@link Clock} (the in-memory module its clock, the Redis modules the system clock unless given
 * one); this module adds the JSON codec, randomness, a wall-time scheduler and
 * the meter registry (docs/decisions/worker-wiring.md). Publishers and workers made by {@link Workers}
 * pass through every {@link PublishInterceptor} and {@link DeliveryInterceptor} another module adds to
 * their set bindings ({@code Multibinder}), in the order added. Opens nothing in {@code configure()}.
 */
public final class RuntimeModule extends AbstractModule {
    private final MeterRegistry registry;

    /** Metrics go to Micrometer's global registry. */
    public RuntimeModule() {
        this(Metrics.globalRegistry);
    }

    public RuntimeModule(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void configure() {
        bind(MeterRegistry.class).toInstance(registry);
        // empty unless another module adds to them: Multibinder.newSetBinder(binder(), DeliveryInterceptor.class).addBinding()...
        Multibinder.newSetBinder(binder(), PublishInterceptor.class);
        Multibinder.newSetBinder(binder(), DeliveryInterceptor.class);
    }

    @Provides
    @Singleton
    PayloadCodec payloadCodec() {
        return new JacksonPayloadCodec();
    }

    @Provides
    @Singleton
    RandomGenerator random() {
        return RandomGenerator.getDefault();
    }

    /** Daemon threads, so it needs no closing; shared by every worker of the injector. */
    @Provides
    @Singleton
    Scheduler scheduler() {
        return Scheduler.system();
    }

    @Provides
    @Singleton
    Workers workers(TaskStoreFactory stores, PayloadCodec codec, Clock clock, RandomGenerator random,
                    Scheduler scheduler, MeterRegistry meterRegistry, Set<PublishInterceptor> publishInterceptors,
                    Set<DeliveryInterceptor> deliveryInterceptors) {
        return new Workers(stores, codec, clock, random, scheduler, meterRegistry, List.copyOf(publishInterceptors),
                List.copyOf(deliveryInterceptors));
    }
}
