package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.ReclaimCause;
import io.ordo.domain.Task;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.Reasons;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * reclaim's two ways of taking tasks back over the store's holdings: every task of a consumer whose
 * heartbeat expired, and every task held past the processing timeout (with, in an ordered partition, the
 * rest of its batch). Not thread-safe: the store runs it under its monitor.
 */
final class InMemoryReclaim {
    private final Holdings holdings;
    private final ConsumerRegistry consumers;

    InMemoryReclaim(Holdings holdings, ConsumerRegistry consumers) {
        this.holdings = holdings;
        this.consumers = consumers;
    }

    /**
     * A task whose cancellation was asked is deleted instead of being put back (counted as cancelled).
     *
     * @param crashed     puts back a task whose processing never finished, its attempt counted; true when
     *                    it died instead (out of attempts)
     * @param unprocessed puts back a delivery that never ran, its attempt not counted
     */
    ReclaimReport run(long now, QueueSettings settings, Predicate<Task> crashed, Consumer<Lease> unprocessed) {
        List<ConsumerId> deadConsumers = consumers.removeExpired(now);
        Tally tally = new Tally();
        for (ConsumerId consumer : deadConsumers) {
            // a consumer holds a lock only while it holds a task of the partition (releaseLockIfDone)
            Set<Partition> theirPartitions = holdings.partitionsHeldBy(consumer);
            for (Lease lease : holdings.heldBy(consumer)) {
                takeBack(lease, Reasons.holderStoppedHeartbeating(consumer), ReclaimCause.HOLDER_STOPPED_HEARTBEATING,
                        crashed, tally);
            }
            holdings.releaseLocksOf(consumer, theirPartitions);
        }
        int timedOut = 0;
        if (settings.hasProcessingTimeout() || holdings.anyOwnDeadline()) {
            InFlightControls controls = holdings.controls();
            Duration queueTimeout = settings.processingTimeout();
            List<Lease> overdue = holdings.all().stream()
                    .filter(lease -> {
                        long deadline = controls.deadlineOf(lease, queueTimeout);
                        return deadline >= 0 && deadline <= now;
                    })
                    // key order: within an ordered batch the first task by key is the one that timed out
                    .sorted(Comparator.comparing((Lease lease) -> lease.task().orderingKey()))
                    .toList();
            for (Lease lease : overdue) {
                if (!holdings.contains(lease.id())) {
                    continue; // already returned with an earlier task of its ordered batch
                }
                if (!controls.isCancelRequested(lease.id())) {
                    timedOut++;
                }
                long timeout = controls.deadlineOf(lease, queueTimeout) - lease.leasedAt();
                takeBack(lease, Reasons.processingTimedOut(timeout), ReclaimCause.PROCESSING_TIMED_OUT, crashed, tally);
                if (lease.partition().isOrdered()) {
                    for (Lease later : holdings.heldInPartition(lease.consumer(), lease.partition())) {
                        if (later.task().orderingKey().compareTo(lease.task().orderingKey()) > 0) {
                            if (controls.isCancelRequested(later.id())) {
                                holdings.dropCancelled(later);
                                tally.cancelled++;
                            } else {
                                holdings.unhold(later.id());
                                unprocessed.accept(later);
                                tally.returned++;
                            }
                        }
                    }
                }
                holdings.releaseLockIfDone(lease.consumer(), lease.partition());
            }
        }
        return new ReclaimReport(deadConsumers, tally.returned, tally.buried, timedOut, tally.cancelled);
    }

    private static final class Tally {
        int returned;
        int buried;
        int cancelled;
    }

    private void takeBack(Lease lease, String reason, ReclaimCause cause, Predicate<Task> crashed, Tally tally) {
        if (holdings.controls().isCancelRequested(lease.id())) {
            holdings.dropCancelled(lease);
            tally.cancelled++;
            return;
        }
        holdings.unhold(lease.id());
        if (crashed.test(lease.task().reclaimed(reason, cause))) {
            tally.buried++;
        } else {
            tally.returned++;
        }
    }
}
