package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.ports.ConsumerPresence;
import io.ordo.ports.TaskStore;
import io.ordo.ports.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acks ride on the worker's next fetch, several fetches share the prefetch, and an idle worker
 * still sends one long poll at a time (docs/decisions/worker-ack-on-fetch.md). The store counts
 * the calls the worker makes for work and checks, as each returns, what the consumer holds there.
 */
class AckOnFetchTest {
    private static final Partition EMAILS = Partition.regular("emails");
    private static final Partition ACCOUNT = Partition.ordered("account-42");

    private final AtomicInteger consumes = new AtomicInteger();
    private final AtomicInteger ackAndConsumes = new AtomicInteger();
    private final AtomicInteger acksCarried = new AtomicInteger();
    private final AtomicInteger ackCalls = new AtomicInteger();
    private final AtomicInteger fetchesOut = new AtomicInteger();
    private final AtomicInteger mostFetchesOut = new AtomicInteger();
    private final AtomicInteger mostWaitingFetchesOut = new AtomicInteger();
    private final AtomicInteger waitingFetchesOut = new AtomicInteger();
    private final AtomicInteger fetchesThatDidNotWait = new AtomicInteger();
    private final AtomicInteger mostHeldInStore = new AtomicInteger();
    /** Once set, a waiting fetch that finds nothing stays out until the test ends: a long poll. */
    private volatile boolean longPolls;
    private volatile boolean slowFetches;
    private final CountDownLatch testOver = new CountDownLatch(1);
    private final WorkerHarness harness = new WorkerHarness(this::counting);

    @AfterEach
    void stop() {
        testOver.countDown();
        harness.close();
    }

    @Test
    void acks_ride_on_fetches_and_none_goes_on_its_own() {
        harness.options.concurrency(4).prefetch(8);
        for (int i = 0; i < 50; i++) {
            harness.publish(EMAILS, "a" + i, "b" + i, "c" + i, "d" + i);
        }

        harness.start((payload, context) -> Outcome.success());
        Eventually.until("all 200 are processed", () -> harness.events.count(Settlement.PROCESSED) == 200);

        assertThat(ackCalls).as("no ack call of its own").hasValue(0);
        assertThat(acksCarried).as("every ack rode on a fetch").hasValue(200);
        System.out.println("ack on fetch: 200 tasks in " + consumes + " consumes and " + ackAndConsumes
                + " ack-and-consumes, no ack calls");
    }

    @ParameterizedTest(name = "{0} fetch(es) in flight")
    @ValueSource(ints = {1, 2})
    void an_ordered_batch_goes_on_while_a_fetch_waits_for_work(int fetchesInFlight) {
        harness.options.concurrency(1).prefetch(5).fetchesInFlight(fetchesInFlight);
        harness.publish(ACCOUNT, "t1", "t2", "t3", "t4");
        longPolls = true;

        harness.start((payload, context) -> {
            Eventually.until("the next fetch waits for work", () -> waitingFetchesOut.get() == 1);
            return Outcome.success();
        });
        Eventually.until("the batch is processed", () -> harness.events.count(Settlement.PROCESSED) == 4);

        assertThat(harness.events.started).containsExactly("t1", "t2", "t3", "t4");
        assertThat(waitingFetchesOut).as("the long poll is still out").hasValue(1);
        if (fetchesInFlight == 1) {
            assertThat(ackCalls).as("with the only loop waiting, each ack went on its own").hasValue(4);
        } else {
            assertThat(acksCarried).as("the other loop carried them").hasValue(4);
        }
    }

    @Test
    void at_the_prefetch_limit_an_ordered_batch_goes_on_with_its_acks_on_fetches() {
        harness.options.concurrency(1).prefetch(4);
        harness.publish(ACCOUNT, "t1", "t2", "t3", "t4");

        harness.start((payload, context) -> Outcome.success());
        Eventually.until("the batch is processed", () -> harness.events.count(Settlement.PROCESSED) == 4);

        assertThat(harness.events.started).containsExactly("t1", "t2", "t3", "t4");
        assertThat(acksCarried.get() + ackCalls.get()).isEqualTo(4);
        assertThat(mostHeldInStore.get()).isLessThanOrEqualTo(4);
    }

    @Test
    void fetches_in_flight_together_never_hold_more_than_the_prefetch() {
        harness.options.concurrency(3).prefetch(6).fetchesInFlight(3);
        slowFetches = true;
        for (int i = 0; i < 100; i++) {
            harness.publish(EMAILS, "a" + i, "b" + i, "c" + i);
        }

        harness.start((payload, context) -> Outcome.success());
        Eventually.until("all 300 are processed", () -> harness.events.count(Settlement.PROCESSED) == 300);

        assertThat(mostHeldInStore.get()).as("tasks held under the worker's name").isBetween(1, 6);
        assertThat(mostFetchesOut.get()).isBetween(1, 3);
        System.out.println("fetches in flight: at most " + mostFetchesOut + " together, "
                + mostHeldInStore + " tasks held at most");
    }

    @Test
    void an_idle_worker_sends_one_waiting_fetch_at_a_time() {
        harness.start((payload, context) -> Outcome.success());
        Eventually.until("a few fetches went by", () -> consumes.get() >= 5);
        Eventually.holdStill(Duration.ofMillis(100));

        assertThat(mostFetchesOut).as("fetches out together").hasValue(1);
        assertThat(mostWaitingFetchesOut).hasValue(1);
        assertThat(fetchesThatDidNotWait).as("no polling beside the long poll").hasValue(0);
        assertThat(ackAndConsumes).hasValue(0);
    }

    // ------------------------------------------------------------------ the counting store

    private TaskStore counting(TaskStore delegate, VirtualClock clock) {
        return (TaskStore) Proxy.newProxyInstance(TaskStore.class.getClassLoader(), new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    boolean fetch = name.equals("consume") || name.equals("ackAndConsume");
                    if (name.equals("ack")) {
                        ackCalls.incrementAndGet();
                    }
                    if (!fetch) {
                        return invoke(method, delegate, args);
                    }
                    Duration wait = (Duration) args[args.length - 1];
                    if (name.equals("consume")) {
                        consumes.incrementAndGet();
                    } else {
                        ackAndConsumes.incrementAndGet();
                        acksCarried.addAndGet(((Collection<?>) args[1]).size());
                    }
                    if (wait.isZero()) {
                        fetchesThatDidNotWait.incrementAndGet();
                    }
                    most(mostFetchesOut, fetchesOut.incrementAndGet());
                    if (!wait.isZero()) {
                        most(mostWaitingFetchesOut, waitingFetchesOut.incrementAndGet());
                    }
                    try {
                        if (slowFetches) {
                            Thread.sleep(1); // so that fetches overlap
                        }
                        Object answer = invoke(method, delegate, args);
                        most(mostHeldInStore, heldInStore(delegate, (ConsumerId) args[0]));
                        if (longPolls && !wait.isZero() && answer instanceof List<?> taken && taken.isEmpty()) {
                            testOver.await();
                        }
                        return answer;
                    } finally {
                        fetchesOut.decrementAndGet();
                        if (!wait.isZero()) {
                            waitingFetchesOut.decrementAndGet();
                        }
                    }
                });
    }

    private static int heldInStore(TaskStore store, ConsumerId consumer) {
        return (int) store.inspect(100).consumers().stream().filter(presence -> presence.consumer().equals(consumer))
                .mapToLong(ConsumerPresence::inFlight).sum();
    }

    private static void most(AtomicInteger most, int value) {
        most.accumulateAndGet(value, Math::max);
    }

    private static Object invoke(java.lang.reflect.Method method, TaskStore delegate, Object[] args) throws Throwable {
        try {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
