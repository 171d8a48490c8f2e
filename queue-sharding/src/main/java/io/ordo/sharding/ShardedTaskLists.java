package io.ordo.sharding;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.domain.Validate;
import io.ordo.ports.CompletedPage;
import io.ordo.ports.CompletedTask;
import io.ordo.ports.CursorPageRequest;
import io.ordo.ports.DeadLetterFilter;
import io.ordo.ports.DeadLetterMatches;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskPage;
import io.ordo.ports.TaskPageRequest;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A sharded queue's task lists ({@link TaskListing}): a partition's from its shard, the delayed and the completed
 * tasks merged, the tasks in flight and the dead-letter searches shard by shard behind a cursor naming the shard.
 */
final class ShardedTaskLists {
    private final List<TaskStore> shards;
    private final ToIntFunction<Partition> shardOf;

    ShardedTaskLists(List<TaskStore> shards, ToIntFunction<Partition> shardOf) {
        this.shards = shards;
        this.shardOf = shardOf;
    }


    PartitionTasks partitionTasks(Partition partition, int offset, int limit) {
        Validate.notNull("partition", partition);
        new TaskPageRequest(offset, limit);
        return shards.get(shardOf.applyAsInt(partition)).partitionTasks(partition, offset, limit);
    }

    /**
     * The shards' tasks not ready yet merged in {@link TaskListing#DELAYED_ORDER}: reads up to {@code offset + limit} of
     * each shard's first, a page of {@value TaskListing#MAX_PAGE} at a time. Read shard by shard, not in one
     * step.
     */
    TaskPage delayedTasks(int offset, int limit) {
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        List<Task> merged = new ArrayList<>();
        long total = 0;
        Instant readAt = Instant.EPOCH;
        for (TaskStore shard : shards) {
            int read = 0;
            TaskPage part;
            do {
                part = shard.delayedTasks(read, Math.min(TaskListing.MAX_PAGE, page.end() - read));
                merged.addAll(part.tasks());
                read += part.tasks().size();
            } while (part.tasks().size() == TaskListing.MAX_PAGE && read < page.end());
            total += part.total();
            readAt = part.readAt().isAfter(readAt) ? part.readAt() : readAt;
        }
        merged.sort(TaskListing.DELAYED_ORDER);
        return new TaskPage(merged.subList(Math.min(offset, merged.size()), Math.min(page.end(), merged.size())),
                total, offset, readAt);
    }

    /**
     * The shards' completed tasks merged in {@link TaskListing#COMPLETED_ORDER}, read as the delayed tasks are; the
     * retention is the first shard's, as the store's settings are.
     */
    CompletedPage completedTasks(int offset, int limit) {
        TaskPageRequest page = new TaskPageRequest(offset, limit);
        List<CompletedTask> merged = new ArrayList<>();
        long total = 0;
        Instant readAt = Instant.EPOCH;
        Duration retention = null;
        for (TaskStore shard : shards) {
            int read = 0;
            CompletedPage part;
            do {
                part = shard.completedTasks(read, Math.min(TaskListing.MAX_PAGE, page.end() - read));
                merged.addAll(part.tasks());
                read += part.tasks().size();
            } while (part.tasks().size() == TaskListing.MAX_PAGE && read < page.end());
            total += part.total();
            readAt = part.readAt().isAfter(readAt) ? part.readAt() : readAt;
            retention = retention == null ? part.resultRetention() : retention;
        }
        merged.sort(TaskListing.COMPLETED_ORDER);
        return new CompletedPage(merged.subList(Math.min(offset, merged.size()), Math.min(page.end(), merged.size())),
                total, offset, retention, readAt);
    }

    /** Shard by shard, each in its own order (by holder name); a cursor is the shard and its own cursor. */
    InFlightPage inFlightTasks(String cursor, int limit) {
        CursorPageRequest page = CursorPageRequest.of(cursor, 2, limit);
        int shard = page.fromStart() ? 0 : shardIn(page);
        String inner = page.fromStart() ? ListingCursor.START : page.part(1);
        List<TaskSnapshot> tasks = new ArrayList<>();
        Instant readAt = Instant.EPOCH;
        while (shard < shards.size()) {
            InFlightPage part = shards.get(shard).inFlightTasks(inner, page.limit() - tasks.size());
            tasks.addAll(part.tasks());
            readAt = part.readAt().isAfter(readAt) ? part.readAt() : readAt;
            if (part.next().isPresent()) {
                inner = part.next().get();
            } else {
                shard++;
                inner = ListingCursor.START;
            }
            if (tasks.size() == page.limit()) {
                break;
            }
        }
        return new InFlightPage(tasks, shard < shards.size()
                ? Optional.of(ListingCursor.of(Integer.toString(shard), inner)) : Optional.empty(), readAt);
    }

    /**
     * Shard by shard, each oldest first; a cursor is the shard and its own cursor. One shard's search per call
     * (so at most {@value TaskListing#MAX_EXAMINED} examined), going on to the next while a shard has nothing to
     * examine; a partition's dead letters are its shard's alone.
     */
    DeadLetterMatches findDeadLetters(DeadLetterFilter filter, String cursor, int limit) {
        Validate.notNull("filter", filter);
        CursorPageRequest page = CursorPageRequest.of(cursor, 2, limit);
        int home = filter.partition() == null ? -1 : shardOf.applyAsInt(filter.partition());
        int shard = page.fromStart() ? Math.max(home, 0) : shardIn(page);
        String inner = page.fromStart() ? ListingCursor.START : page.part(1);
        while (true) {
            DeadLetterMatches part = shards.get(shard).findDeadLetters(filter, inner, page.limit());
            int next = part.next().isPresent() ? shard : home >= 0 ? shards.size() : shard + 1;
            Optional<String> goOn = next < shards.size()
                    ? Optional.of(ListingCursor.of(Integer.toString(next), part.next().orElse(ListingCursor.START)))
                    : Optional.empty();
            if (part.examined() > 0 || goOn.isEmpty()) {
                return new DeadLetterMatches(part.matches(), part.examined(), goOn, part.readAt());
            }
            shard = next;
            inner = ListingCursor.START;
        }
    }

    /** The shard a cursor names. */
    private int shardIn(CursorPageRequest page) {
        long shard = page.number(0);
        if (shard < 0 || shard >= shards.size()) {
            throw new InvalidInputException("cursor", "is not a cursor this listing gave; start again with an empty one");
        }
        return (int) shard;
    }
}
