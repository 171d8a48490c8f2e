package io.ordo.simulation;

import io.ordo.domain.TaskId;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static io.ordo.simulation.InvariantViolation.fail;

/** The shape of a per-id answer (which ids, in which order) and each id's outcome against the model's. */
final class OutcomeChecks {

    private final QueueModel model;

    OutcomeChecks(QueueModel model) {
        this.model = model;
    }

    /** The result names every id given, in the order given, plus exactly the expected extra ids. */
    void checkKeys(String operation, Map<TaskId, ?> result, List<TaskId> named, Set<TaskId> extras) {
        Set<TaskId> expected = new LinkedHashSet<>(named);
        expected.addAll(extras);
        if (!result.keySet().equals(expected)) {
            fail(Invariant.OUTCOMES, "%s of %s answered for %s, expected exactly %s", operation, named,
                    result.keySet(), expected);
        }
        Iterator<TaskId> inOrder = named.iterator();
        TaskId next = inOrder.hasNext() ? inOrder.next() : null;
        for (TaskId key : result.keySet()) {
            if (key.equals(next)) {
                next = inOrder.hasNext() ? inOrder.next() : null;
            }
        }
        if (next != null) {
            fail(Invariant.OUTCOMES, "%s answers %s, not in the order of the ids given %s", operation,
                    result.keySet(), named);
        }
    }

    void expect(String operation, TaskId id, Object actual, Object expected) {
        if (!Objects.equals(actual, expected)) {
            fail(Invariant.OUTCOMES, "%s of %s: expected %s, got %s (%s)", operation, id, expected, actual,
                    model.describeId(id));
        }
    }
}
