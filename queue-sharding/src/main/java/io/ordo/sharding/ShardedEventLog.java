package io.ordo.sharding;

import io.ordo.ports.EventLogCursor;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A sharded queue's event log ({@link io.ordo.ports.TaskEvents}): each shard keeps its own (a call's events are
 * its shard's), each capped at the queue's {@code eventLogLength}; a read takes up to {@code limit} after each
 * shard's own cursor and merges them by time, shard by shard on a tie. The cursor holds every shard's.
 */
final class ShardedEventLog {
    private final List<TaskStore> shards;

    ShardedEventLog(List<TaskStore> shards) {
        this.shards = shards;
    }

    TaskEventPage events(String cursor, int limit) {
        List<String> parts = ListingCursor.parts(cursor, shards.size());
        EventLogCursor.checkLimit(limit);
        List<String> next = new ArrayList<>(shards.size());
        List<TaskEventPage> pages = new ArrayList<>(shards.size());
        List<Sourced> merged = new ArrayList<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            String inner = parts.isEmpty() ? ListingCursor.START : parts.get(shard);
            TaskEventPage page = shards.get(shard).events(inner, limit);
            pages.add(page);
            next.add(inner);
            for (TaskEvent event : page.events()) {
                merged.add(new Sourced(shard, event));
            }
        }
        merged.sort(Comparator.comparing((Sourced sourced) -> sourced.event().at()).thenComparingInt(Sourced::shard)
                .thenComparingLong(sourced -> sourced.event().seq()));
        List<Sourced> taken = merged.subList(0, Math.min(limit, merged.size()));
        boolean[] advanced = new boolean[shards.size()];
        for (Sourced sourced : taken) {
            next.set(sourced.shard(), EventLogCursor.of(sourced.event().seq()));
            advanced[sourced.shard()] = true;
        }
        // a shard's gap is told once: with its first events read, or while it has none to read
        boolean missed = false;
        for (int shard = 0; shard < shards.size(); shard++) {
            missed |= pages.get(shard).missed() && (advanced[shard] || pages.get(shard).events().isEmpty());
        }
        return new TaskEventPage(taken.stream().map(Sourced::event).toList(),
                taken.isEmpty() ? cursor : ListingCursor.of(next.toArray(String[]::new)), missed);
    }

    private record Sourced(int shard, TaskEvent event) {
    }
}
