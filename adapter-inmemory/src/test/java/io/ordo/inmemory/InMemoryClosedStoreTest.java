package io.ordo.inmemory;

import io.ordo.ports.TaskStoreFactory;
import io.ordo.ports.VirtualClock;
import io.ordo.tck.ClosedStoreKit;

class InMemoryClosedStoreTest extends ClosedStoreKit {
    @Override
    protected TaskStoreFactory openFactory(VirtualClock clock) {
        return new InMemoryTaskStoreFactory(clock);
    }
}
