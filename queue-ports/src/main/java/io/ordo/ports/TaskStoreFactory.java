package io.ordo.ports;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;

import java.util.List;

/**
 * Opens stores for queues on one backend; closing it closes the backend's connections. Once it is
 * closed, every call of a store it made, and of the factory, throws {@link StoreClosedException}; a
 * consume waiting at that moment ends with that exception (at once on the in-memory and Lettuce
 * stores; on Jedis when its wait is over, as a blocking read on a pooled connection cannot be cut short).
 */
public interface TaskStoreFactory extends AutoCloseable {
    /** The store of one queue (cheap; may be called for every queue). */
    TaskStore forQueue(QueueName queue);

    /**
     * The store of one consumer group of a queue (cheap): its consuming, acking, inspection, dead letters,
     * pause and settings are the group's; the group need not exist yet, but a call that needs its state
     * (all but publishing, the schedules and the groups' own administration) throws
     * {@link io.ordo.domain.InvalidInputException} naming {@code group} while it does not.
     */
    TaskStore forGroup(QueueName queue, GroupName group);

    /** Queues that hold any data on this backend, by name (for operators' views; may scan the backend). */
    List<QueueName> knownQueues();

    /** Releases the backend's connections. */
    @Override
    void close();
}
