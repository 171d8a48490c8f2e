package io.ordo.inmemory;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.TaskListing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A queue's dead letters in the order they died, each numbered by its death (as Redis's {@code dead} scores
 * them: a search goes on from a number), how many ever died and how many the caps deleted. Not thread-safe:
 * the store calls it under its monitor.
 */
final class DeadLetters {
    private final TreeMap<Long, DeadLetter> byDeath = new TreeMap<>();
    private final Map<TaskId, Long> deathOf = new HashMap<>();
    private long total;
    private long droppedTotal;

    /**
     * The task, its last error saying why it died, into the dead letters; then the oldest past the caps go,
     * at most {@link QueueSettings#DEAD_LETTERS_DROPPED_PER_DEATH}.
     */
    void bury(Task task, long now, QueueSettings settings) {
        total++;
        Long earlier = deathOf.put(task.id(), total);
        if (earlier != null) {
            byDeath.remove(earlier);
        }
        byDeath.put(total, new DeadLetter(task, task.lastError(), now));
        trim(settings, now, QueueSettings.DEAD_LETTERS_DROPPED_PER_DEATH);
    }

    /** Deletes the oldest dead letters while the caps say so, at most {@code most}; how many it deleted. */
    long trim(QueueSettings settings, long now, long most) {
        long dropped = 0;
        while (dropped < most && !byDeath.isEmpty()
                && settings.dropsOldestDeadLetter(byDeath.size(), byDeath.firstEntry().getValue().deadAt(), now)) {
            deathOf.remove(byDeath.pollFirstEntry().getValue().id());
            dropped++;
        }
        droppedTotal += dropped;
        return dropped;
    }

    DeadLetter get(TaskId id) {
        Long death = deathOf.get(id);
        return death == null ? null : byDeath.get(death);
    }

    DeadLetter remove(TaskId id) {
        Long death = deathOf.remove(id);
        return death == null ? null : byDeath.remove(death);
    }

    boolean contains(TaskId id) {
        return deathOf.containsKey(id);
    }

    DeadLetterPage page(int offset, int limit) {
        return new DeadLetterPage(byDeath.values().stream().skip(offset).limit(limit).toList(), byDeath.size(), offset);
    }

    /**
     * The dead letters {@code filter} matches among at most {@link TaskListing#MAX_EXAMINED} that died after
     * death number {@code after} (0: from the first), at most {@code limit}; the cursor goes on after the last
     * one examined.
     */
    DeadLetterMatches find(DeadLetterFilter filter, long after, int limit, long now) {
        List<DeadLetter> matches = new ArrayList<>();
        int examined = 0;
        long last = after;
        Iterator<Map.Entry<Long, DeadLetter>> letters = byDeath.tailMap(after, false).entrySet().iterator();
        while (letters.hasNext() && examined < TaskListing.MAX_EXAMINED && matches.size() < limit) {
            Map.Entry<Long, DeadLetter> letter = letters.next();
            examined++;
            last = letter.getKey();
            if (filter.matches(letter.getValue())) {
                matches.add(letter.getValue());
            }
        }
        Optional<String> next = byDeath.higherKey(last) == null ? Optional.empty()
                : Optional.of(ListingCursor.of(Long.toString(last)));
        return new DeadLetterMatches(matches, examined, next, Instant.ofEpochMilli(now));
    }

    List<TaskId> ids() {
        return byDeath.values().stream().map(DeadLetter::id).toList();
    }

    /** Deletes every dead letter; how many there were. */
    long purgeAll() {
        long count = byDeath.size();
        byDeath.clear();
        deathOf.clear();
        return count;
    }

    int size() {
        return byDeath.size();
    }

    boolean isEmpty() {
        return byDeath.isEmpty();
    }

    /** Tasks dead-lettered since the queue began. */
    long total() {
        return total;
    }

    /** Dead letters the caps deleted since the queue began. */
    long droppedTotal() {
        return droppedTotal;
    }
}
