package io.ordo.ports;

import io.ordo.domain.Lease;
import io.ordo.domain.TaskId;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link TaskStore#ackAndConsume} did: the outcome of each ack (in the order the ids were given)
 * and the tasks taken afterwards, in queue order.
 */
public record AckedAndTaken(Map<TaskId, AckOutcome> acks, List<Lease> taken) {
    public AckedAndTaken {
        acks = Collections.unmodifiableMap(new LinkedHashMap<>(acks));
        taken = List.copyOf(taken);
    }
}
