package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Task;
import io.ordo.domain.TaskState;

import java.util.Optional;

/** A task and where it is; {@code holder} is present exactly when the state is IN_FLIGHT. */
public record TaskSnapshot(Task task, TaskState state, Optional<ConsumerId> holder) {
}
