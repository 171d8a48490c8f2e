package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Task;
import io.ordo.domain.TaskState;

import java.util.Optional;

/**
 * A task and where it is; {@code holder} and {@code lease} are present exactly when the state is IN_FLIGHT.
 */
public record TaskSnapshot(Task task, TaskState state, Optional<ConsumerId> holder, Optional<LeaseStatus> lease) {
    /** A task no consumer holds. */
    public static TaskSnapshot unheld(Task task, TaskState state) {
        return new TaskSnapshot(task, state, Optional.empty(), Optional.empty());
    }

    /** A task in flight. */
    public static TaskSnapshot held(Task task, ConsumerId holder, LeaseStatus lease) {
        return new TaskSnapshot(task, TaskState.IN_FLIGHT, Optional.of(holder), Optional.of(lease));
    }
}
