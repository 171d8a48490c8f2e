package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acks of tasks finishing while an ack call is in flight go together in the next call, each task
 * still settled with its own outcome (docs/decisions/worker-ack-grouping.md). Every scenario is made
 * deterministic with latches: the first ack call is held until the other acks are known to be queued.
 * Acks go on their own here: grouping is how they go when no fetch carries them (AckOnFetchTest).
 */
class AckGroupingTest {
    private static final Partition AUDIT = Partition.regular("audit");
    private static final Partition ACCOUNT = Partition.ordered("account-42");

    /** Entered by the first ack call, which then waits for {@link #releaseFirstAck}. */
    private final CountDownLatch firstAckEntered = new CountDownLatch(1);
    private final CountDownLatch releaseFirstAck = new CountDownLatch(1);
    private final List<List<String>> ackCalls = new CopyOnWriteArrayList<>();
    private final Set<String> leaseLost = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final WorkerHarness harness = new WorkerHarness(this::holdingFirstAck);

    {
        harness.options.ackOnFetch(false);
    }

    @AfterEach
    void stop() {
        releaseFirstAck.countDown();
        harness.close();
    }

    @Test
    void acks_finishing_during_an_ack_call_go_together_in_the_next_call() {
        harness.options.concurrency(5).prefetch(5);
        harness.publish(AUDIT, "t1", "t2", "t3", "t4", "t5");

        Worker<String> worker = harness.start(this::t1FirstThenTheRest);
        Eventually.until("the four later acks wait behind t1's call", () -> worker.acksWaiting() == 4);
        assertThat(harness.events.count(Settlement.PROCESSED)).as("nothing settled before its answer").isZero();
        releaseFirstAck.countDown();

        Eventually.until("all five are processed", () -> harness.events.count(Settlement.PROCESSED) == 5);
        assertThat(ackCalls).hasSize(2);
        assertThat(ackCalls.get(0)).containsExactly("t1");
        assertThat(ackCalls.get(1)).containsExactlyInAnyOrder("t2", "t3", "t4", "t5");
        assertThat(List.of("t1", "t2", "t3", "t4", "t5")).allMatch(harness::isGone);
        System.out.println("ack grouping: 5 tasks acked in " + ackCalls.size() + " calls " + ackCalls);
    }

    @Test
    void with_grouping_off_each_task_is_acked_by_its_own_call() {
        harness.options.concurrency(5).prefetch(5).groupAcks(false);
        harness.publish(AUDIT, "t1", "t2", "t3", "t4", "t5");

        Worker<String> worker = harness.start(this::t1FirstThenTheRest);
        Eventually.until("the four later acks are sent beside t1's", () -> ackCalls.size() == 5);
        assertThat(worker.acksWaiting()).isZero();
        releaseFirstAck.countDown();

        Eventually.until("all five are processed", () -> harness.events.count(Settlement.PROCESSED) == 5);
        assertThat(ackCalls).allMatch(call -> call.size() == 1);
    }

    @Test
    void each_task_of_a_group_gets_its_own_outcome() {
        harness.options.concurrency(5).prefetch(5);
        harness.publish(AUDIT, "t1", "t2", "t3", "t4", "t5");
        leaseLost.add("t3");

        Worker<String> worker = harness.start(this::t1FirstThenTheRest);
        Eventually.until("the four later acks wait behind t1's call", () -> worker.acksWaiting() == 4);
        releaseFirstAck.countDown();

        Eventually.until("all five are settled", () -> harness.events.settlements.size() == 5);
        assertThat(ackCalls.get(1)).hasSize(4).contains("t3");
        assertThat(harness.events.settlementsOf("t3")).containsExactly(Settlement.LEASE_LOST);
        assertThat(harness.events.settledAs(Settlement.PROCESSED)).containsExactlyInAnyOrder("t1", "t2", "t4", "t5");
    }

    @Test
    void an_ordered_batch_goes_on_only_after_its_grouped_ack_went_through() {
        harness.options.concurrency(2).prefetch(4);
        harness.publish(AUDIT, "r1");
        harness.publish(ACCOUNT, "t1", "t2", "t3");
        leaseLost.add("t1");

        Worker<String> worker = harness.start((payload, context) -> {
            if (!payload.equals("r1")) {
                awaitFirstAck(); // r1's ack is the call in flight; t1's queues behind it
            }
            return Outcome.success();
        });
        Eventually.until("t1's ack waits behind r1's call", () -> worker.acksWaiting() == 1);
        Eventually.holdStill(java.time.Duration.ofMillis(50));
        assertThat(harness.events.started).as("t2 waits for t1's answer").doesNotContain("t2");
        releaseFirstAck.countDown();

        Eventually.until("the batch is settled", () -> harness.events.settlements.size() == 4);
        assertThat(harness.events.settlementsOf("r1")).containsExactly(Settlement.PROCESSED);
        assertThat(harness.events.settlementsOf("t1")).containsExactly(Settlement.LEASE_LOST);
        assertThat(harness.events.settlementsOf("t2")).containsExactly(Settlement.RELEASED);
        assertThat(harness.events.settlementsOf("t3")).containsExactly(Settlement.RELEASED);
        assertThat(harness.events.started).doesNotContain("t2", "t3");
        assertThat(ackCalls).containsExactly(List.of("r1"), List.of("t1"));
    }

    @Test
    void a_thread_whose_ack_waits_behind_another_call_moves_on_to_its_next_task() {
        harness.options.concurrency(2).prefetch(3);
        harness.publish(AUDIT, "t1", "t2", "t3");

        Worker<String> worker = harness.start((payload, context) -> {
            if (payload.equals("t2")) {
                awaitFirstAck();
            }
            return Outcome.success();
        });
        Eventually.until("t3 ran while t1's ack call was in flight", () -> harness.events.started.contains("t3"));
        Eventually.until("t2's and t3's acks wait", () -> worker.acksWaiting() == 2);
        releaseFirstAck.countDown();

        Eventually.until("all three are processed", () -> harness.events.count(Settlement.PROCESSED) == 3);
        assertThat(ackCalls).hasSize(2);
        assertThat(ackCalls.get(0)).containsExactly("t1");
        assertThat(ackCalls.get(1)).containsExactlyInAnyOrder("t2", "t3");
    }

    @Test
    void stopping_sends_the_acks_still_waiting() throws Exception {
        harness.options.concurrency(5).prefetch(5);
        harness.publish(AUDIT, "t1", "t2", "t3", "t4", "t5");

        Worker<String> worker = harness.start(this::t1FirstThenTheRest);
        Eventually.until("the four later acks wait behind t1's call", () -> worker.acksWaiting() == 4);
        Thread stopper = new Thread(worker::stop, "stopper");
        stopper.start();
        Eventually.until("the worker is stopping", () -> worker.state() == WorkerState.STOPPING);
        releaseFirstAck.countDown();
        stopper.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(worker.state()).isEqualTo(WorkerState.STOPPED);
        assertThat(harness.events.count(Settlement.PROCESSED)).isEqualTo(5);
        assertThat(List.of("t1", "t2", "t3", "t4", "t5")).allMatch(harness::isGone);
    }

    // ------------------------------------------------------------------ helpers

    /** t1 finishes at once; the others only once t1's ack call is in flight. */
    private Outcome t1FirstThenTheRest(String payload, TaskContext context) throws InterruptedException {
        if (!payload.equals("t1")) {
            awaitFirstAck();
        }
        return Outcome.success();
    }

    private void awaitFirstAck() {
        try {
            if (!firstAckEntered.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("no ack call came");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The store, recording every ack call, holding the first until released, answering lease-lost for chosen ids. */
    private TaskStore holdingFirstAck(TaskStore delegate, io.ordo.ports.VirtualClock clock) {
        return (TaskStore) Proxy.newProxyInstance(TaskStore.class.getClassLoader(), new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("ack")) {
                        return ack(delegate, (ConsumerId) args[0], (Collection<?>) args[1]);
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private Map<TaskId, AckOutcome> ack(TaskStore delegate, ConsumerId consumer, Collection<?> ids) throws InterruptedException {
        List<String> names = new ArrayList<>();
        List<TaskId> kept = new ArrayList<>();
        for (Object id : ids) {
            TaskId task = (TaskId) id;
            names.add(task.value());
            if (!leaseLost.contains(task.value())) {
                kept.add(task);
            }
        }
        ackCalls.add(List.copyOf(names));
        if (firstAckEntered.getCount() > 0) {
            firstAckEntered.countDown();
            if (!releaseFirstAck.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the first ack call was never released");
            }
        }
        Map<TaskId, AckOutcome> outcomes = new LinkedHashMap<>(delegate.ack(consumer, kept));
        for (Object id : ids) {
            outcomes.putIfAbsent((TaskId) id, AckOutcome.LEASE_LOST);
        }
        return outcomes;
    }
}
