package io.ordo.ports;

import io.ordo.domain.TaskId;

import java.util.Collection;
import java.util.Map;

/** Looking after tasks that ran out of attempts or failed for good (see {@link TaskStore} for errors). */
public interface DeadLetterAdmin extends QueueBound {
    /** Dead letters, oldest first. */
    DeadLetterPage deadLetters(int offset, int limit);

    /** Sends dead letters back to their partitions with attempts reset. */
    Map<TaskId, RedriveOutcome> redrive(Collection<TaskId> ids);

    /** Sends every dead letter back; returns how many. */
    long redriveAll();

    /** Deletes the named dead letters; returns how many were deleted. */
    long purgeDeadLetters(Collection<TaskId> ids);

    /** Deletes every dead letter; returns how many. */
    long purgeAllDeadLetters();
}
