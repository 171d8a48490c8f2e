package io.ordo.inmemory;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;

/** Wires the in-memory simulator store on the given clock (a {@code VirtualClock} for deterministic runs). */
public final class InMemoryQueueModule extends AbstractModule {
    private final Clock clock;

    public InMemoryQueueModule(Clock clock) {
        this.clock = clock;
    }

    @Override
    protected void configure() {
        bind(Clock.class).toInstance(clock);
    }

    @Provides
    @Singleton
    TaskStoreFactory taskStoreFactory(Clock boundClock) {
        return new InMemoryTaskStoreFactory(boundClock);
    }
}
