package io.ordo.ports;

import io.ordo.domain.QueueName;

/** Opens stores for queues on one backend; closing it closes the backend's connections. */
public interface TaskStoreFactory extends AutoCloseable {
    /** The store of one queue (cheap; may be called for every queue). */
    TaskStore forQueue(QueueName queue);

    /** Releases the backend's connections. */
    @Override
    void close();
}
