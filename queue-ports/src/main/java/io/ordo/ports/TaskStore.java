package io.ordo.ports;

/**
 * One queue's tasks, as the backend keeps them (docs/contract.md, "Operations"): what a backend implements.
 * It is the union of the roles its users depend on: {@link TaskPublishing} (a publisher),
 * {@link TaskConsuming} and {@link QueueMaintenance} (a worker), {@link TaskInspection} (gauges,
 * dashboards), {@link TaskListing} (the dashboard's task lists), {@link DeadLetterAdmin}, {@link QueueAdmin},
 * {@link QueueSchedules} and {@link ConsumerGroups} (operators), {@link TaskEvents} (followers of what became of
 * the tasks).
 *
 * <p>Every method is one atomic step on the backend. Expected outcomes come back as values;
 * exceptions mean bad input ({@link io.ordo.domain.InvalidInputException}, nothing written) or
 * broken infrastructure ({@link QueueUnavailableException}, {@link QueueDataException},
 * {@link QueueCapacityException}). Maps returned by the multi-id operations iterate in the order of
 * the ids given (tasks returned with their ordered batch follow, in key order).
 *
 * <p>An {@link io.ordo.domain.InvalidInputException} names the parameter at fault as declared in the
 * roles ({@code consumer}, {@code max}, {@code wait}, {@code ids}, {@code acks}, {@code acks[i]}, {@code ids[i]},
 * {@code rejection}, {@code partition}, {@code duration}, {@code ttl}, {@code id}, {@code offset}, {@code limit}, {@code cursor},
 * {@code reasonContains}, {@code diedBefore},
 * {@code settings}), or the task at fault in a batch ({@code tasks[i]}, {@code tasks[i].payload}).
 */
public interface TaskStore extends TaskPublishing, TaskConsuming, QueueMaintenance, TaskInspection, DeadLetterAdmin,
        QueueAdmin, QueueSchedules, ConsumerGroups, TaskListing, TaskEvents {
}
