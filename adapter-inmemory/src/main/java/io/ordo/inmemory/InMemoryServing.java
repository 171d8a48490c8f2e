package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.Task;
import io.ordo.ports.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What one look of a consume takes: the partitions in serving order, an ordered one's ready run under its lock
 * and another's head, within the queue's free slots and the rate limits' tokens, each task leased to the
 * consumer. The store keeps the waiting and the rules that hold a partition back; this is the taking. Not
 * thread-safe: the store runs it under its monitor.
 */
final class InMemoryServing {
    private final WaitingTasks waiting;
    private final Holdings holdings;
    private final RateBuckets buckets;
    private final ConsumerRegistry consumers;
    private final Clock clock;
    /** The view's settings as they are now (configure changes them). */
    private final Supplier<QueueSettings> currentSettings;

    InMemoryServing(WaitingTasks waiting, Holdings holdings, RateBuckets buckets, ConsumerRegistry consumers,
                    Clock clock, Supplier<QueueSettings> currentSettings) {
        this.waiting = waiting;
        this.holdings = holdings;
        this.buckets = buckets;
        this.consumers = consumers;
        this.clock = clock;
        this.currentSettings = currentSettings;
    }

    /** The tasks due to the consumer now, none while the view is paused; the consumer is noted as seen either way. */
    List<Lease> takeDue(ConsumerId consumer, int max, boolean paused) {
        QueueSettings settings = currentSettings.get();
        long now = clock.millis();
        long expiresAt = now + settings.heartbeatTtl().toMillis();
        consumers.consumed(consumer, expiresAt, now);
        List<Lease> taken = new ArrayList<>();
        if (paused) {
            return taken;
        }
        waiting.settle(now);
        int room = room(max, now);
        RateLimit partitionRate = settings.partitionRateLimit();
        PartitionState state;
        while (taken.size() < room && (state = waiting.nextToServe()) != null) {
            int before = taken.size();
            if (state.partition.isOrdered()) {
                int run = (int) Math.min(room - taken.size(),
                        buckets.partitionTokens(partitionRate, state.partition, now));
                for (Task task : state.readyRun(run, now)) {
                    take(task, consumer, now, taken);
                }
                holdings.lock(state.partition, consumer, now);
            } else {
                take(state.head(now).orElseThrow(), consumer, now, taken);
            }
            if (!partitionRate.isOff()) {
                buckets.takeFromPartition(partitionRate, state.partition, taken.size() - before, now);
            }
            waiting.served(state, now);
        }
        RateLimit queueRate = settings.queueRateLimit();
        if (!queueRate.isOff() && !taken.isEmpty()) {
            buckets.takeFromQueue(queueRate, taken.size(), now);
        }
        return taken;
    }

    /** How many tasks this consume may take: max, cut to the queue's free slots and its tokens. */
    private int room(int max, long now) {
        QueueSettings settings = currentSettings.get();
        long room = max;
        if (settings.queueConcurrency() > 0) {
            room = Math.min(room, settings.queueConcurrency() - holdings.size());
        }
        room = Math.min(room, buckets.queueTokens(settings.queueRateLimit(), now));
        return (int) Math.max(0, room);
    }

    private void take(Task task, ConsumerId consumer, long now, List<Lease> taken) {
        waiting.remove(task);
        Lease lease = new Lease(task.withAttempts(task.attempts() + 1), consumer, now);
        holdings.hold(lease);
        taken.add(lease);
    }
}
