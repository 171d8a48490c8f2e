package io.ordo.benchmarks;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness's driver against a queue in memory that records every call (no Redis here). */
class DrainWorkerTest {
    private static final int PREFETCH = 32;
    private static final int THREADS = 8;
    private static final Duration WAIT = Duration.ofMillis(50);

    @AfterEach
    void acksRideOnFetchesAgain() {
        DrainWorker.ackEachTask = false;
    }

    @Test
    void acks_ride_on_fetches_with_at_most_two_calls_in_flight_and_the_prefetch_held() throws Exception {
        FakeQueue queue = new FakeQueue(2_000, 100, false);
        Ledger ledger = new Ledger(2_000, 0, false);

        drain(queue, ledger, 2_000);

        assertThat(ledger.exactlyOnce(2_000).passed()).as(ledger.exactlyOnce(2_000).detail()).isTrue();
        assertThat(queue.mostHeld.get()).isLessThanOrEqualTo(PREFETCH);
        assertThat(queue.mostInFlight.get()).isLessThanOrEqualTo(2);
        assertThat(queue.mostWaitingInFlight.get()).as("only one call at a time may wait for tasks").isEqualTo(1);
        assertThat(queue.calls()).anyMatch(call -> call.acks() > 0 && call.max() > 0);
    }

    @Test
    void an_ordered_partition_runs_in_order_while_its_acks_ride_on_fetches() throws Exception {
        FakeQueue queue = new FakeQueue(2_000, 20, true);
        Ledger ledger = new Ledger(2_000, 20, false);

        drain(queue, ledger, 2_000);

        assertThat(ledger.exactlyOnce(2_000).passed()).as(ledger.exactlyOnce(2_000).detail()).isTrue();
        assertThat(ledger.violations()).isZero();
    }

    @Test
    void with_ack_each_every_handler_sends_its_own_ack_and_fetches_carry_none() throws Exception {
        DrainWorker.ackEachTask = true;
        FakeQueue queue = new FakeQueue(500, 100, false);
        Ledger ledger = new Ledger(500, 0, false);

        drain(queue, ledger, 500);

        assertThat(ledger.exactlyOnce(500).passed()).isTrue();
        assertThat(queue.calls()).allMatch(call -> call.max() > 0 ? call.acks() == 0 : call.acks() == 1);
    }

    @Test
    void an_idle_worker_waits_in_one_fetch_at_a_time() throws Exception {
        FakeQueue queue = new FakeQueue(0, 1, false);
        long start = System.nanoTime();
        try (DrainWorker worker = new DrainWorker(queue, new Ledger(1, 0, false), THREADS, PREFETCH, Long.MAX_VALUE,
                WAIT).start()) {
            Thread.sleep(500);
            worker.rethrowFailure();
        }
        long waits = (System.nanoTime() - start) / WAIT.toNanos();
        assertThat(queue.mostInFlight.get()).isEqualTo(1);
        assertThat(queue.calls()).allMatch(call -> call.max() == PREFETCH && call.waits());
        assertThat((long) queue.calls().size()).as("one fetch per wait, no polling").isBetween(5L, waits + 1);
    }

    private static void drain(FakeQueue queue, Ledger ledger, int tasks) throws InterruptedException {
        try (DrainWorker worker = new DrainWorker(queue, ledger, THREADS, PREFETCH, tasks, WAIT).start()) {
            assertThat(ledger.awaitAcked(tasks, Duration.ofSeconds(30), worker::rethrowFailure)).isTrue();
        }
    }

    /** What one call carried. */
    private record Call(int acks, int max, boolean waits) {
    }

    /**
     * Tasks 0..n-1 over {@code partitions} partitions; an ordered partition is locked from the call that
     * takes any of its tasks until all of them are acked, as Ordo's are. Each call takes a little while,
     * so calls overlap as they do over a network.
     */
    private static final class FakeQueue implements BenchQueue.Consumer {
        final AtomicInteger mostHeld = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        final AtomicInteger mostWaitingInFlight = new AtomicInteger();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger waitingInFlight = new AtomicInteger();
        private final List<BenchQueue.Delivery> waiting = new ArrayList<>();
        private final Map<Object, String> held = new HashMap<>();
        private final List<Call> calls = new ArrayList<>();

        FakeQueue(int tasks, int partitions, boolean ordered) {
            for (int i = 0; i < tasks; i++) {
                int partition = i % partitions;
                waiting.add(new BenchQueue.Delivery(i, ordered ? Integer.toString(partition) : null,
                        BenchPayload.of(i, partition, i / partitions)));
            }
        }

        synchronized List<Call> calls() {
            return List.copyOf(calls);
        }

        @Override
        public BenchQueue.AckedAndFetched ackAndFetch(List<BenchQueue.Delivery> acks, int max, Duration wait) {
            boolean waits = wait.toMillis() > 0;
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            if (waits) {
                mostWaitingInFlight.accumulateAndGet(waitingInFlight.incrementAndGet(), Math::max);
            }
            try {
                LockSupport.parkNanos(200_000);
                BenchQueue.AckedAndFetched answer = ackAndTake(acks, max, waits);
                if (answer.deliveries().isEmpty() && max > 0 && waits) {
                    LockSupport.parkNanos(wait.toNanos());
                }
                return answer;
            } finally {
                inFlight.decrementAndGet();
                if (waits) {
                    waitingInFlight.decrementAndGet();
                }
            }
        }

        private synchronized BenchQueue.AckedAndFetched ackAndTake(List<BenchQueue.Delivery> acks, int max,
                                                                   boolean waits) {
            calls.add(new Call(acks.size(), max, waits));
            int acked = 0;
            for (BenchQueue.Delivery ack : acks) {
                acked += held.remove(ack.handle(), ack.orderedPartition() == null ? "" : ack.orderedPartition()) ? 1 : 0;
            }
            Set<String> locked = new HashSet<>(held.values());
            List<BenchQueue.Delivery> taken = new ArrayList<>();
            for (var it = waiting.iterator(); it.hasNext() && taken.size() < max; ) {
                BenchQueue.Delivery next = it.next();
                if (next.orderedPartition() == null || !locked.contains(next.orderedPartition())) {
                    it.remove();
                    taken.add(next);
                    held.put(next.handle(), next.orderedPartition() == null ? "" : next.orderedPartition());
                }
            }
            mostHeld.accumulateAndGet(held.size(), Math::max);
            return new BenchQueue.AckedAndFetched(acked, taken);
        }

        @Override
        public void keepAlive() {
        }
    }
}
