package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.AckedAndTaken;
import io.ordo.ports.Clock;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskConsuming;
import io.ordo.ports.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The worker's fetch loops (docs/decisions/worker-ack-on-fetch.md): each takes a {@link FetchSlots.Plan},
 * makes the one store call it describes (a consume, or an ack-and-consume carrying the acks of
 * finished tasks), settles the acks from the answer and hands the tasks over to be run. A failed call
 * retires its consumer name (it may have leased tasks whose answer never arrived), and one loop
 * backs off and retries while the others hold still (docs/decisions/worker-backend-outage.md).
 */
final class Fetcher {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    /** Where the fetch loops hand over what they bring: the tasks, and the answers to the acks they carry. */
    interface Deliveries {
        /** Settles acks a fetch carried with the answers it brought. */
        void acked(List<AckGroups.PendingAck> acks, Map<TaskId, AckOutcome> answers);

        /** Sends acks on their own; {@code sentBefore}: a call that carried them failed, so their answer is unknown. */
        void sendAcks(List<AckGroups.PendingAck> acks, boolean sentBefore);

        /** Holds the tasks a fetch brought; they count against the prefetch from here. */
        List<HeldTask> hold(Incarnation incarnation, List<Lease> leases, long receivedAt);

        /** Runs tasks just held (or returns them, when stopping). */
        void run(List<HeldTask> tasks) throws InterruptedException;

        /** The store says the cancellation of these tasks {@code consumer} holds was asked. */
        void cancelRequested(ConsumerId consumer, Set<TaskId> ids);

        /** The store was closed under the worker: the fetch loop has ended. */
        void storeClosed(StoreClosedException error);

        /** A fetch loop died of an unexpected error. */
        void died(Error error);
    }

    private final TaskConsuming store;
    private final QueueName queue;
    private final Clock clock;
    private final Ticker ticker;
    private final FetchSlots slots;
    private final Supplier<Incarnation> incarnation;
    private final BackendStatus backend;
    private final WorkerListener listener;
    private final Pause pause;
    private final IntFunction<Duration> backoff;
    private final Deliveries deliveries;
    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param incarnation the consumer name to fetch under now
     * @param backoff     the pause after so many failed fetches in a row
     */
    Fetcher(TaskConsuming store, Clock clock, Ticker ticker, FetchSlots slots, Supplier<Incarnation> incarnation,
            BackendStatus backend, WorkerListener listener, Pause pause, IntFunction<Duration> backoff, Deliveries deliveries) {
        this.store = store;
        this.queue = store.queue();
        this.clock = clock;
        this.ticker = ticker;
        this.slots = slots;
        this.incarnation = incarnation;
        this.backend = backend;
        this.listener = listener;
        this.pause = pause;
        this.backoff = backoff;
        this.deliveries = deliveries;
    }

    void start(int loops, ThreadFactory factory) {
        for (int i = 0; i < loops; i++) {
            Thread thread = factory.newThread(this::loop);
            threads.add(thread);
            thread.start();
        }
    }

    /** Waits up to {@code millis} in all for the loops to end. */
    void join(long millis) throws InterruptedException {
        long deadline = ticker.nanos() + millis * 1_000_000;
        for (Thread thread : threads) {
            thread.join(Math.max(1, (deadline - ticker.nanos()) / 1_000_000));
        }
    }

    private void loop() {
        Object me = Thread.currentThread();
        int failures = 0;
        try {
            for (FetchSlots.Plan plan; (plan = slots.next(me, incarnation)) != null; ) {
                if (!plan.others().isEmpty()) {
                    deliveries.sendAcks(plan.others(), false);
                }
                if (!plan.fetches()) {
                    continue;
                }
                failures = fetch(me, plan, failures);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoreClosedException e) {
            deliveries.storeClosed(e); // no retry can succeed: the worker stops
        } catch (Error e) {
            LOG.error("queue {}: a fetch loop died; it fetches no more", queue, e);
            deliveries.died(e);
            throw e;
        } finally {
            deliveries.sendAcks(slots.goAway(), false);
        }
    }

    /** Makes the plan's call and hands over what it brought; the failed calls in a row of this loop since. */
    private int fetch(Object me, FetchSlots.Plan plan, int failures) throws InterruptedException {
        Incarnation name = plan.incarnation();
        long startedAt = clock.millis();
        long startNanos = ticker.nanos();
        List<Lease> leases;
        Map<TaskId, AckOutcome> answers = Map.of();
        Set<TaskId> cancelRequested = Set.of();
        try {
            if (plan.acks().isEmpty()) {
                leases = store.consume(name.consumer, plan.max(), plan.waitFor());
            } else {
                List<TaskId> ids = new ArrayList<>(plan.acks().size());
                plan.acks().forEach(ack -> ids.add(ack.task().lease.id()));
                AckedAndTaken answer = store.ackAndConsume(name.consumer, ids, plan.max(), plan.waitFor());
                answers = answer.acks();
                leases = answer.taken();
                cancelRequested = answer.cancelRequested();
            }
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            boolean retriesForAll = slots.failed(me, plan);
            name.retire(); // the call may have leased tasks whose answer never arrived
            backend.failed(e);
            deliveries.sendAcks(plan.acks(), true);
            Duration retryIn = retriesForAll ? backoff.apply(failures + 1) : Duration.ZERO;
            listener.fetchFailed(e, retryIn);
            if (retriesForAll) {
                backOff(retryIn);
            }
            return failures + 1;
        }
        slots.succeeded(me);
        name.renewed(startedAt);
        backend.succeeded();
        listener.fetched(leases.size(), Duration.ofNanos(ticker.nanos() - startNanos));
        if (!plan.acks().isEmpty()) {
            deliveries.acked(plan.acks(), answers); // first, so the tasks taken never push the held ones past the prefetch
        }
        // the processing timeout counts from here on this worker's clock: the store's leasedAt is on
        // the server's, and a long fetch may have started well before the tasks were leased
        List<HeldTask> tasks = deliveries.hold(name, leases, clock.millis());
        if (!cancelRequested.isEmpty()) {
            deliveries.cancelRequested(name.consumer, cancelRequested);
        }
        slots.returned(plan, leases.size());
        deliveries.run(tasks);
        return 0;
    }

    /** This loop retries for all of them after a pause; acks meanwhile go on their own. */
    private void backOff(Duration retryIn) {
        deliveries.sendAcks(slots.goAway(), false);
        try {
            pause.await(retryIn);
        } finally {
            slots.comeBack();
        }
    }
}
