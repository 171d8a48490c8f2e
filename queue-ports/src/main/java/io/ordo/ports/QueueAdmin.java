package io.ordo.ports;

import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;

import java.util.Collection;
import java.util.Map;

/** An operator's levers on the queue: pause, settings, blocks and cancelling (see {@link TaskStore} for errors). */
public interface QueueAdmin extends QueueBound {
    /** Stops delivering tasks from the whole queue (publishing still works). */
    void pause();

    /** Delivers again after a pause. */
    void resume();

    /** Stores new settings; every consumer uses them from its next operation on. */
    void configure(QueueSettings settings);

    /** Lifts a block at once. */
    void unblockPartition(Partition partition);

    /**
     * Deletes waiting (or dead) tasks; marks tasks in flight, whose holder learns it with its next heartbeat or
     * fetch and which end as cancelled when they leave its hands (docs/task-control.md).
     */
    Map<TaskId, CancelOutcome> cancel(Collection<TaskId> ids);
}
