package io.ordo.tck.contract;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;

/** How the consumer groups' contract gets the store of a group (docs/groups.md). */
@FunctionalInterface
public interface GroupStoreUnderTest {
    /**
     * The store of {@code group} of {@code queue}, on the same backend as the store {@link StoreUnderTest}
     * made for that queue and clock (the group need not exist).
     */
    TaskStore create(QueueName queue, GroupName group, VirtualClock clock);
}
