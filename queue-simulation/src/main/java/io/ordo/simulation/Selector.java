package io.ordo.simulation;

import io.ordo.domain.TaskId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Which task ids a step names, resolved when the step runs.
 *
 * @param kind   how to pick
 * @param count  how many, at most
 * @param choice seeds the pick, so the same state gives the same ids
 */
public record Selector(Kind kind, int count, long choice) {

    /** How to pick. */
    public enum Kind {
        /** The first held tasks in delivery order: a worker going through its batch in order. */
        FIRST,
        /** Held tasks at random, in random order. */
        ANY,
        /** One id among every id published so far: usually not held by this consumer. */
        FOREIGN
    }

    String describe() {
        return kind.name().toLowerCase(Locale.ROOT) + "(" + count + ")";
    }

    /** The ids to name, given what the consumer holds (delivery order) and every id known. */
    List<TaskId> resolve(Collection<TaskId> held, List<TaskId> known) {
        SplittableRandom random = new SplittableRandom(choice);
        if (kind == Kind.FOREIGN || held.isEmpty()) {
            return known.isEmpty() ? List.of() : List.of(known.get(random.nextInt(known.size())));
        }
        List<TaskId> pool = new ArrayList<>(held);
        int n = Math.min(count, pool.size());
        if (kind == Kind.FIRST) {
            return List.copyOf(pool.subList(0, n));
        }
        List<TaskId> picked = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            picked.add(pool.remove(random.nextInt(pool.size())));
        }
        return picked;
    }
}
