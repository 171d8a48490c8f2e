package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Task;
import io.ordo.domain.TaskState;

import java.util.Optional;

/**
 * A task and where it is; {@code holder} and {@code lease} are present exactly when the state is IN_FLIGHT,
 * {@code completion} exactly when it is COMPLETED.
 */
public record TaskSnapshot(Task task, TaskState state, Optional<ConsumerId> holder, Optional<LeaseStatus> lease,
                           Optional<Completion> completion) {
    /** A task no consumer holds, not completed. */
    public static TaskSnapshot unheld(Task task, TaskState state) {
        return new TaskSnapshot(task, state, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** A task in flight. */
    public static TaskSnapshot held(Task task, ConsumerId holder, LeaseStatus lease) {
        return new TaskSnapshot(task, TaskState.IN_FLIGHT, Optional.of(holder), Optional.of(lease), Optional.empty());
    }

    /** A completed task kept with its result. */
    public static TaskSnapshot completed(Task task, Completion completion) {
        return new TaskSnapshot(task, TaskState.COMPLETED, Optional.empty(), Optional.empty(), Optional.of(completion));
    }
}
