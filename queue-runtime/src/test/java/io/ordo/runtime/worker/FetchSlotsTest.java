package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Task;
import io.ordo.domain.TaskId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * When the fetch loops call under a backlog (docs/decisions/worker-ack-on-fetch.md): two loops, prefetch
 * 32, so a batch's worth is 16. The test plays the fetch loops and holds the tasks itself.
 */
class FetchSlotsTest {
    private static final int PREFETCH = 32;
    private static final Partition EMAILS = Partition.regular("emails");

    private final AtomicInteger held = new AtomicInteger();
    private final Incarnation name = new Incarnation(ConsumerId.of("worker-1"), 0);
    private final Object loopA = new Object();
    private final Object loopB = new Object();
    private final ExecutorService other = Executors.newSingleThreadExecutor();
    private int ids;

    @AfterEach
    void stop() {
        other.shutdownNow();
    }

    @Test
    void a_call_that_asked_for_no_task_leaves_the_backlog_known() throws Exception {
        FetchSlots slots = slots(Duration.ofMillis(1));
        FetchSlots.Plan first = slots.next(loopA, () -> name);
        hold(PREFETCH);
        slots.returned(first, PREFETCH); // the queue has more
        offerAcks(slots, 16);
        FetchSlots.Plan outOfA = slots.next(loopA, () -> name);
        offerAcks(slots, 1);
        FetchSlots.Plan acksOnly = slots.next(loopB, () -> name); // the ack waited its delay; no room left
        assertThat(acksOnly.acks()).hasSize(1);
        assertThat(acksOnly.max()).isZero();
        held.addAndGet(-16);
        hold(16);
        slots.returned(outOfA, 16);
        held.decrementAndGet();
        slots.returned(acksOnly, 0);

        // one slot free and the queue still full: not worth a call of its own
        Future<FetchSlots.Plan> next = other.submit(() -> slots.next(loopA, () -> name));
        assertThatThrownBy(() -> next.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        slots.stop();
        assertThat(next.get(10, TimeUnit.SECONDS)).isNull();
    }

    private FetchSlots slots(Duration ackDelay) {
        return new FetchSlots(PREFETCH, 2, WorkerOptions.ACKS_PER_CALL, Duration.ofSeconds(1), held::get, ackDelay);
    }

    private void hold(int tasks) {
        held.addAndGet(tasks);
    }

    private void offerAcks(FetchSlots slots, int count) {
        for (int i = 0; i < count; i++) {
            assertThat(slots.offer(new AckGroups.PendingAck(heldTask(), new CompletableFuture<>()))).isTrue();
        }
    }

    private HeldTask heldTask() {
        TaskId id = TaskId.of("t" + ++ids);
        Task task = Task.published(NewTask.builder(EMAILS, "{}".getBytes(StandardCharsets.UTF_8)).id(id).build(), ids, 0);
        return new HeldTask(new Lease(task, name.consumer, 0), name, 0);
    }
}
