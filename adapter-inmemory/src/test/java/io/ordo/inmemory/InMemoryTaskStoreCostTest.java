package io.ordo.inmemory;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.InFlightPage;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.TaskListing;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory store keeps the cost bounds docs/redis-design.md gives the Redis stores: no operation
 * scans the partitions, the waiting tasks or the tasks in flight, so a large simulation stays fast.
 * Each workload takes well under a second when every operation costs O(log n) per task it moves, and
 * minutes when an operation is linear in what the queue holds (quadratic over the workload): the
 * timeouts are far from both, so the tests do not depend on the machine's speed.
 */
class InMemoryTaskStoreCostTest {
    private static final int MANY = 20_000;
    private static final Duration NO_WAIT = Duration.ZERO;

    private final VirtualClock clock = new VirtualClock();
    private final TaskStore store = new InMemoryTaskStoreFactory(clock).forQueue(QueueName.of("cost"));
    private final ConsumerId worker = ConsumerId.of("worker");

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void taking_a_task_does_not_look_at_every_partition() {
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            tasks.add(task("t" + i, Partition.regular("p" + i), 0, Duration.ZERO));
        }
        publish(tasks);

        int taken = 0;
        while (!store.consume(worker, 1, NO_WAIT).isEmpty()) {
            taken++;
        }

        assertThat(taken).isEqualTo(MANY);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void taking_a_task_does_not_look_at_the_delayed_tasks_before_it() {
        Partition partition = Partition.regular("one");
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            tasks.add(task("urgent-later-" + i, partition, 5, Duration.ofHours(1))); // first by key, not ready
            tasks.add(task("now-" + i, partition, 0, Duration.ZERO));
        }
        publish(tasks);

        int taken = 0;
        while (!store.consume(worker, 1, NO_WAIT).isEmpty()) {
            taken++;
        }
        assertThat(taken).isEqualTo(MANY);

        clock.advance(Duration.ofHours(1));
        assertThat(store.consume(worker, 1, NO_WAIT)).extracting(lease -> lease.id().value())
                .containsExactly("urgent-later-0");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void acking_an_ordered_task_does_not_look_at_every_task_in_flight() {
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            tasks.add(task("o" + i, Partition.ordered("p" + i), 0, Duration.ZERO));
        }
        publish(tasks);
        List<TaskId> held = new ArrayList<>();
        for (List<Lease> leases; !(leases = store.consume(worker, TaskStore.MAX_CONSUME, NO_WAIT)).isEmpty(); ) {
            leases.forEach(lease -> held.add(lease.id()));
        }
        assertThat(held).hasSize(MANY);

        for (TaskId id : held) {
            store.ack(worker, List.of(id));
        }

        assertThat(store.stats().inFlight()).isZero();
        assertThat(store.stats().lockedPartitions()).isZero();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void reclaiming_many_dead_consumers_reads_each_task_in_flight_once() {
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            tasks.add(task("t" + i, Partition.regular("p" + i), 0, Duration.ZERO));
        }
        publish(tasks);
        for (int i = 0; i < MANY; i++) {
            ConsumerId consumer = ConsumerId.of("c" + i);
            assertThat(store.consume(consumer, 1, NO_WAIT)).hasSize(1);
            store.heartbeat(consumer, Duration.ofSeconds(1));
        }
        clock.advance(Duration.ofSeconds(2));

        assertThat(store.reclaim().returned()).isEqualTo(MANY);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void stats_do_not_read_every_waiting_task() {
        // the simulation reads stats after every step
        int count = 3 * MANY;
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            tasks.add(task("t" + i, Partition.regular("p" + i % 100), 0, Duration.ofMillis(i % 2 == 0 ? 0 : 10 + i)));
        }
        publish(tasks);

        long readySeen = 0;
        for (int i = 0; i < count; i++) {
            clock.advanceMillis(1);
            readySeen = store.stats().ready();
        }

        assertThat(readySeen).isEqualTo(count / 2 + (count - 10) / 2);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void the_task_lists_read_a_page_not_the_queue() {
        Partition partition = Partition.regular("one");
        List<NewTask> tasks = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            tasks.add(task("w" + i, partition, 0, Duration.ZERO));
            tasks.add(task("d" + i, Partition.regular("later"), 0, Duration.ofMinutes(1 + i)));
        }
        publish(tasks);
        List<Lease> held = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            held.addAll(store.consume(worker, TaskStore.MAX_CONSUME, NO_WAIT));
        }

        // a linear page (sorting or copying every task per call) would take minutes here
        for (int i = 0; i < MANY / 4; i++) {
            assertThat(store.partitionTasks(partition, TaskListing.MAX_OFFSET, TaskListing.MAX_PAGE).tasks()).hasSize(100);
            assertThat(store.delayedTasks(TaskListing.MAX_OFFSET, TaskListing.MAX_PAGE).tasks()).hasSize(100);
        }
        int listed = 0;
        for (String cursor = ListingCursor.START; cursor != null; ) {
            InFlightPage page = store.inFlightTasks(cursor, TaskListing.MAX_PAGE);
            listed += page.tasks().size();
            cursor = page.next().orElse(null);
        }
        assertThat(listed).isEqualTo(held.size());
    }

    private void publish(List<NewTask> tasks) {
        for (int from = 0; from < tasks.size(); from += TaskStore.MAX_CONSUME) {
            store.publish(tasks.subList(from, Math.min(tasks.size(), from + TaskStore.MAX_CONSUME)));
        }
    }

    private static NewTask task(String id, Partition partition, int priority, Duration delay) {
        return NewTask.builder(partition, new byte[] {1}).id(id).priority(priority).delay(delay).build();
    }
}
