package io.ordo.ports;

import io.ordo.domain.Lease;
import io.ordo.domain.TaskId;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link TaskStore#ackAndConsume} did: the outcome of each ack (in the order the ids were given),
 * the tasks taken afterwards, in queue order, and the tasks the consumer still holds whose cancellation
 * was asked ({@link CancelOutcome#CANCEL_REQUESTED}), as its heartbeat would say.
 */
public record AckedAndTaken(Map<TaskId, AckOutcome> acks, List<Lease> taken, Set<TaskId> cancelRequested) {
    public AckedAndTaken {
        acks = Collections.unmodifiableMap(new LinkedHashMap<>(acks));
        taken = List.copyOf(taken);
        cancelRequested = Set.copyOf(cancelRequested);
    }

    /** No cancellation asked for: what a store that cannot tell on a fetch answers (its heartbeat does). */
    public AckedAndTaken(Map<TaskId, AckOutcome> acks, List<Lease> taken) {
        this(acks, taken, Set.of());
    }
}
