package io.ordo.ports;

import io.ordo.domain.NewTask;

import java.util.List;

/** Adding tasks to the queue: what a publisher needs (see {@link TaskStore} for errors and parameter names). */
public interface TaskPublishing extends QueueBound {
    /** Publishes 1..10,000 tasks atomically; validates the whole batch first. Receipts in batch order. */
    List<PublishReceipt> publish(List<NewTask> tasks);
}
