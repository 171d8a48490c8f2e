package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.Task;
import io.ordo.ports.CursorPageRequest;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.PartitionBlock;
import io.ordo.ports.PartitionLock;
import io.ordo.ports.PartitionTasks;
import io.ordo.ports.TaskPageRequest;
import io.ordo.ports.TaskSnapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/** What the task lists (TaskListing) read of the in-memory store, in the order the port gives. */
final class InMemoryListing {
    private InMemoryListing() {
    }

    static PartitionTasks partition(Partition partition, TaskPageRequest page, WaitingTasks waiting, Holdings holdings,
                                    QueueSettings settings, long now) {
        PartitionState state = waiting.state(partition);
        NavigableSet<Task> order = state == null ? new TreeSet<>() : state.deliveryOrder(now);
        ConsumerId holder = holdings.locks().get(partition);
        Optional<PartitionLock> lock = holder == null ? Optional.empty()
                : Optional.of(new PartitionLock(partition, holder, Instant.ofEpochMilli(holdings.lockedAt(partition)),
                holdings.heldInPartition(holder, partition).size()));
        OptionalLong inFlight = partition.isOrdered() ? OptionalLong.of(lock.map(PartitionLock::inFlight).orElse(0L))
                : settings.hasConcurrencyCaps() ? OptionalLong.of(holdings.inFlightOf(partition)) : OptionalLong.empty();
        Long blockedUntil = waiting.blocks().get(partition);
        Optional<PartitionBlock> block = blockedUntil == null || blockedUntil <= now ? Optional.empty()
                : Optional.of(new PartitionBlock(partition, Instant.ofEpochMilli(blockedUntil)));
        return new PartitionTasks(partition, Instant.ofEpochMilli(now), state == null ? 0 : state.waiting.size(),
                inFlight, lock, block, order.isEmpty() ? Optional.empty() : Optional.of(order.first()),
                order.stream().skip(page.offset()).limit(page.limit()).toList(), order.size(), page.offset());
    }

    /**
     * Tasks in flight by holder name, each holder's in publish order, after the cursor's (holder, seq); a cursor
     * names the last task listed.
     */
    static InFlightPage inFlight(CursorPageRequest page, Holdings holdings, QueueSettings settings, long now) {
        String fromHolder = page.fromStart() ? "" : page.part(0);
        long afterSeq = page.fromStart() ? -1 : page.number(1);
        List<ConsumerId> holders = holdings.holders().stream()
                .filter(holder -> holder.value().compareTo(fromHolder) >= 0)
                .sorted(Comparator.comparing(ConsumerId::value)).toList();
        List<TaskSnapshot> tasks = new ArrayList<>();
        Lease last = null;
        for (ConsumerId holder : holders) {
            for (Lease lease : holdings.heldBy(holder)) {
                if (holder.value().equals(fromHolder) && lease.task().seq() <= afterSeq) {
                    continue;
                }
                if (tasks.size() == page.limit()) {
                    return new InFlightPage(tasks, Optional.of(ListingCursor.of(last.consumer().value(),
                            Long.toString(last.task().seq()))), Instant.ofEpochMilli(now));
                }
                tasks.add(TaskSnapshot.held(lease.task(), holder,
                        holdings.controls().statusOf(lease, settings.processingTimeout())));
                last = lease;
            }
        }
        return new InFlightPage(tasks, Optional.empty(), Instant.ofEpochMilli(now));
    }
}
