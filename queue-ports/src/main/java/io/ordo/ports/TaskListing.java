package io.ordo.ports;

import io.ordo.domain.Partition;
import io.ordo.domain.Task;

import java.util.Comparator;

/**
 * The tasks themselves, page by page, for operators' views (the dashboard; docs/contract.md, "Task lists"): a
 * partition's waiting tasks in the order it delivers them, the tasks not ready yet, the tasks in flight, the
 * dead letters a filter matches and the completed tasks a queue keeps with their results. Each call is one atomic step on the backend, and none reads the whole queue:
 * offsets stop at {@value #MAX_OFFSET}, pages at {@value #MAX_PAGE}, and a dead-letter search examines at most
 * {@value #MAX_EXAMINED} dead letters per call (see {@link TaskStore} for errors).
 */
public interface TaskListing extends QueueBound {
    /** The most tasks a page holds. */
    int MAX_PAGE = 100;
    /** The deepest offset of an offset-paged listing: the first {@code MAX_OFFSET + MAX_PAGE} tasks can be listed. */
    int MAX_OFFSET = 1_000;
    /** The most dead letters one search call examines. */
    int MAX_EXAMINED = 1_000;

    /**
     * The order of {@link #delayedTasks}: by ready time, ties by id as its UTF-8 bytes sort (Redis's order of
     * members of one score).
     */
    Comparator<Task> DELAYED_ORDER = Comparator.comparingLong(Task::readyAt).thenComparing(task -> task.id().value(),
            TaskListing::compareUtf8);

    /**
     * The order of {@link #completedTasks}: the latest to go first, that is by {@code keptUntil} descending (newest
     * completed first while the queue's retention stays the same), ties by id as its UTF-8 bytes sort, descending
     * (Redis's reverse order of members of one score).
     */
    Comparator<CompletedTask> COMPLETED_ORDER = Comparator.comparing(CompletedTask::keptUntil)
            .thenComparing(completed -> completed.task().id().value(), TaskListing::compareUtf8).reversed();

    /**
     * A partition as its page shows it: its head, lock, block and counts, and from {@code offset} (0..{@value
     * #MAX_OFFSET}) up to {@code limit} (1..{@value #MAX_PAGE}) of the tasks it delivers from, in the order it
     * delivers them: an ordered partition's every waiting task in key order, a regular one's tasks whose ready time
     * has come (its others are {@link #delayedTasks}).
     */
    PartitionTasks partitionTasks(Partition partition, int offset, int limit);

    /** Waiting tasks not ready yet, in {@link #DELAYED_ORDER}, from {@code offset} (0..{@value #MAX_OFFSET}), {@code limit} (1..{@value #MAX_PAGE}). */
    TaskPage delayedTasks(int offset, int limit);

    /**
     * Tasks in flight with their holders and leases, by holder name (Java's {@code String} order), a holder's
     * tasks in an order the store keeps; up to {@code limit} (1..{@value #MAX_PAGE}) from {@code cursor}
     * ({@link ListingCursor#START} for the first page, else a {@link InFlightPage#next()} this store gave).
     */
    InFlightPage inFlightTasks(String cursor, int limit);

    /**
     * Dead letters the filter matches, oldest first: up to {@code limit} (1..{@value #MAX_PAGE}) of those among at
     * most {@value #MAX_EXAMINED} examined from {@code cursor} ({@link ListingCursor#START}, or a {@link
     * DeadLetterMatches#next()} this store gave).
     */
    DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit);

    /**
     * The completed tasks the queue keeps (docs/task-control.md, "Results"), in {@link #COMPLETED_ORDER}, from
     * {@code offset} (0..{@value #MAX_OFFSET}), {@code limit} (1..{@value #MAX_PAGE}): each with when it completed,
     * until when it is kept and the size of its result ({@link TaskInspection#get} reads the result). Those past
     * their time are listed until the maintenance deletes them, as {@link QueueStats#completed()} counts them.
     */
    CompletedPage completedTasks(int offset, int limit);

    /** Strings as their UTF-8 bytes sort: code point by code point. */
    private static int compareUtf8(String a, String b) {
        for (int i = 0, j = 0; i < a.length() && j < b.length(); ) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.codePointCount(0, a.length()), b.codePointCount(0, b.length()));
    }
}
