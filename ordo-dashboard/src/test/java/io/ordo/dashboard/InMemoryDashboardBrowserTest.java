package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import org.junit.jupiter.api.Tag;

/** The dashboard's browser tests on the in-memory backend. */
@Tag("full")
class InMemoryDashboardBrowserTest extends CompletedTasksBrowserContract {
    @Override
    TaskStoreFactory openStores() {
        return Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
    }

    @Override
    String backend() {
        return "inmemory";
    }
}
