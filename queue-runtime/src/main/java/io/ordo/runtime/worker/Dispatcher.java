package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.StoreClosedException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What the fetch loops hand over, taken in: the tasks they bring are held and dispatched to the
 * handler threads (each ordered batch as one unit, in order; every regular task as a unit of its
 * own), a suspect of a crash runs alone, and the acks they carry go to the {@link Settler}.
 */
final class Dispatcher implements Fetcher.Deliveries {
    /** The longest a suspect waits for the worker's other tasks, and the worker for the suspect (poison-isolation.md). */
    private static final Duration SUSPECT_WAIT = Duration.ofSeconds(10);

    private final HeldTasks held;
    private final FetchSlots slots;
    private final Settler settler;
    private final TimeoutWatch timeouts;
    private final Cancellations cancellations;
    private final HandlerThreads threads;
    private final Consumer<List<HeldTask>> runner;
    private final BooleanSupplier stopping;
    private final StoreClosedAlarm storeClosed;
    private final Runnable fetchLoopDied;
    /** Held by the fetch loop whose suspect runs alone: one suspect at a time. */
    private final ReentrantLock aloneRun = new ReentrantLock();

    /**
     * @param runner        runs one unit on a handler thread
     * @param stopping      whether the worker is shutting down: then tasks go back instead of to a handler
     * @param fetchLoopDied told when a fetch loop died of an unexpected error
     */
    Dispatcher(HeldTasks held, FetchSlots slots, Settler settler, TimeoutWatch timeouts, Cancellations cancellations,
               HandlerThreads threads, Consumer<List<HeldTask>> runner, BooleanSupplier stopping,
               StoreClosedAlarm storeClosed, Runnable fetchLoopDied) {
        this.held = held;
        this.slots = slots;
        this.settler = settler;
        this.timeouts = timeouts;
        this.cancellations = cancellations;
        this.threads = threads;
        this.runner = runner;
        this.stopping = stopping;
        this.storeClosed = storeClosed;
        this.fetchLoopDied = fetchLoopDied;
    }

    @Override
    public void acked(List<AckGroups.PendingAck> acks, Map<TaskId, AckOutcome> answers) {
        settler.settleAcks(acks, answers, false);
    }

    @Override
    public void sendAcks(List<AckGroups.PendingAck> acks, boolean sentBefore) {
        settler.sendAcks(acks, sentBefore);
    }

    @Override
    public List<HeldTask> hold(Incarnation incarnation, List<Lease> leases, long receivedAt) {
        List<HeldTask> tasks = new ArrayList<>(leases.size());
        for (Lease lease : leases) {
            HeldTask task = new HeldTask(lease, incarnation, receivedAt);
            HeldTask previous = held.add(task);
            if (previous != null) {
                timeouts.giveUpRedelivered(previous);
            }
            tasks.add(task);
        }
        return tasks;
    }

    @Override
    public void run(List<HeldTask> tasks) throws InterruptedException {
        if (!tasks.isEmpty() && tasks.get(0).incarnation.retired()) {
            // fetched under a name retired while the fetch was out (a hung task was given up): back at
            // once, the attempt not counted, rather than held under a name that is left to expire
            settler.returnQueued(tasks);
            return;
        }
        HeldTask suspect = HeldTask.firstSuspect(tasks);
        if (suspect == null) {
            dispatch(tasks);
        } else {
            runAlone(tasks, suspect);
        }
    }

    @Override
    public void cancelRequested(ConsumerId consumer, Set<TaskId> ids) {
        cancellations.requested(consumer, ids);
    }

    @Override
    public void storeClosed(StoreClosedException error) {
        storeClosed.raise(error);
    }

    @Override
    public void died(Error error) {
        fetchLoopDied.run();
    }

    /**
     * Runs a suspect with nothing else held (docs/decisions/poison-isolation.md): the rest of the
     * fetch goes straight back, its attempt not counted, the suspect starts once every other task
     * has settled, and nothing more is fetched until it has. If it crashes the process again, only
     * it is charged an attempt, not the tasks that happened to be fetched with it. Each wait ends
     * after {@link #SUSPECT_WAIT}, so a hung handler (before or in the suspect) never stops the worker.
     */
    private void runAlone(List<HeldTask> tasks, HeldTask suspect) throws InterruptedException {
        if (!aloneRun.tryLock()) {
            // another fetch loop's suspect runs alone: this whole fetch goes back, suspect included, so
            // nothing of it is held (and charged) should that one crash the process; it comes again later
            settler.returnQueued(tasks);
            return;
        }
        try {
            settler.sendAcks(slots.beginAlone(SUSPECT_WAIT), false);
            try {
                settler.returnQueued(tasks.stream().filter(task -> task != suspect).toList());
                held.awaitAtMost(1, SUSPECT_WAIT, stopping);
                dispatch(List.of(suspect));
                held.awaitAtMost(0, SUSPECT_WAIT, stopping);
            } finally {
                slots.endAlone();
            }
        } finally {
            aloneRun.unlock();
        }
    }

    /** Ordered batches stay whole (one unit, in order); every regular task is a unit of its own. */
    private void dispatch(List<HeldTask> tasks) {
        if (stopping.getAsBoolean()) {
            settler.returnQueued(tasks);
            return;
        }
        List<List<HeldTask>> units = new ArrayList<>(tasks.size());
        Map<Partition, List<HeldTask>> batches = null;
        for (HeldTask task : tasks) {
            Partition partition = task.lease.partition();
            if (partition.isOrdered()) {
                if (batches == null) {
                    batches = new LinkedHashMap<>();
                }
                batches.computeIfAbsent(partition, ordered -> {
                    List<HeldTask> batch = new ArrayList<>();
                    units.add(batch);
                    return batch;
                }).add(task);
            } else {
                units.add(List.of(task));
            }
        }
        for (List<HeldTask> unit : units) {
            try {
                threads.execute(() -> runner.accept(unit));
            } catch (RejectedExecutionException e) {
                return; // shutting down: stop() returns every task that has not started
            }
        }
    }
}
