package io.ordo.ports;

import io.ordo.domain.PublishRules;
import io.ordo.domain.TaskId;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/** The ids an operation on tasks names, checked once for every store. */
public final class TaskIds {
    private TaskIds() {
    }

    /**
     * Each id once, in the order first named: {@code field} must not be null nor name more than a batch,
     * {@code field[i]} must not be null.
     */
    public static List<TaskId> distinct(String field, Collection<TaskId> ids) {
        return List.copyOf(new LinkedHashSet<>(PublishRules.ids(field, ids)));
    }
}
