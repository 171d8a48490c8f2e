package io.ordo.tck;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.PublishOutcome;
import io.ordo.ports.PublishReceipt;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.ordo.tck.fixtures.ConsumerFixture.workerA;
import static io.ordo.tck.fixtures.TaskFixture.task;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many delayed tasks falling due at the same moment are delivered exactly in the contract's order
 * (docs/semantics.md: highest head priority first, then the least recently served partition; inside a
 * partition priority, dueAt, publish order), however a backend splits the work of making them ready.
 * The counts are far above any per-call bound a backend keeps on that work.
 */
public abstract class DuePromotionKit {
    private static final int TASKS = 12_000;
    private static final int PRIORITIES = 5;
    private static final Duration DELAY = Duration.ofSeconds(1);

    private VirtualClock clock;
    private TaskStore store;

    protected abstract TaskStore createStore(QueueName queue, VirtualClock clock);

    @BeforeEach
    void startOnAFreshQueue() {
        clock = new VirtualClock();
        store = createStore(QueueName.of("due-" + UUID.randomUUID()), clock);
    }

    @Test
    void tasksFallingDueTogetherAcrossRegularPartitionsComeHighestPriorityFirst() {
        // ids grow with priority, so the lowest-priority tasks are the first in any id order
        publishDelayed(i -> Partition.regular("p-" + (i % 8)));
        clock.advance(DELAY);

        List<Lease> delivered = drain();

        assertContractOrder(delivered);
    }

    @Test
    void tasksFallingDueTogetherAcrossOrderedPartitionsComeHighestPriorityFirst() {
        // one task per ordered partition: every partition waits for its head's time
        publishDelayed(i -> Partition.ordered("o-" + i));
        clock.advance(DELAY);

        List<Lease> delivered = drain();

        assertContractOrder(delivered);
    }

    private void publishDelayed(java.util.function.IntFunction<Partition> partitionOf) {
        List<NewTask> batch = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            int priority = i * PRIORITIES / TASKS;
            batch.add(task(String.format("t-%06d", i), partitionOf.apply(i)).priority(priority).delayedBy(DELAY)
                    .build());
            if (batch.size() == PublishRules.MAX_BATCH || i == TASKS - 1) {
                assertThat(store.publish(batch)).extracting(PublishReceipt::outcome).containsOnly(PublishOutcome.CREATED);
                batch.clear();
            }
        }
    }

    /** Consumes and acks until nothing is left; no task is published meanwhile. */
    private List<Lease> drain() {
        ConsumerId consumer = workerA();
        List<Lease> delivered = new ArrayList<>();
        List<TaskId> acks = List.of();
        while (true) {
            List<Lease> taken = store.ackAndConsume(consumer, acks, TaskStore.MAX_CONSUME, Duration.ZERO).taken();
            if (taken.isEmpty()) {
                return delivered;
            }
            delivered.addAll(taken);
            acks = taken.stream().map(Lease::id).toList();
        }
    }

    /**
     * With one task taken at a time from the partition of highest head priority, and nothing arriving,
     * priorities never rise along the delivery; inside a partition, tasks of one priority come in publish
     * order; every task comes exactly once.
     */
    private static void assertContractOrder(List<Lease> delivered) {
        assertThat(delivered).hasSize(TASKS);
        Set<TaskId> seen = new HashSet<>();
        Map<Partition, Lease> lastOf = new HashMap<>();
        Lease previous = null;
        for (Lease lease : delivered) {
            assertThat(seen.add(lease.id())).as("delivered once: %s", lease.id()).isTrue();
            if (previous != null) {
                assertThat(lease.task().priority().value()).as("priority of %s after %s", lease.id(), previous.id())
                        .isLessThanOrEqualTo(previous.task().priority().value());
            }
            Lease last = lastOf.put(lease.partition(), lease);
            if (last != null && last.task().priority().equals(lease.task().priority())) {
                assertThat(lease.task().seq()).as("publish order in %s", lease.partition())
                        .isGreaterThan(last.task().seq());
            }
            previous = lease;
        }
    }
}
