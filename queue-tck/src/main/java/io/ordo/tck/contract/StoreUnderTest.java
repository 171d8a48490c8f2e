package io.ordo.tck.contract;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

/** How the contract gets a store of the backend under test. */
@FunctionalInterface
public interface StoreUnderTest {
    /**
     * A store serving {@code queue} that reads the time from {@code clock}. Called before every test,
     * and again by tests that need a second queue on the same backend.
     */
    TaskStore create(QueueName queue, VirtualClock clock);
}
