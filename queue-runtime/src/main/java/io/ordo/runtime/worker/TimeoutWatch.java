package io.ordo.runtime.worker;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Gives up on tasks held past their deadline: their own processing timeout, else the queue's
 * (docs/decisions/hung-handlers.md):
 * a running one's handler is interrupted and its outcome will be dropped, a queued one never starts;
 * both leave the prefetch, and a thread stuck in a handler is replaced so the worker keeps its
 * capacity. The store's reaper returns them to the queue, the attempt counted.
 */
final class TimeoutWatch {
    /** How often the watch looks for a deadline while neither the queue nor a held task sets a timeout. */
    private static final Duration IDLE_INTERVAL = Duration.ofSeconds(1);

    private final QueueName queue;
    private final Logger log;
    private final Clock clock;
    private final Scheduler scheduler;
    private final HeldTasks held;
    private final Settler settler;
    private final WorkerListener listener;
    private final HandlerThreads threads;
    private final Supplier<Duration> processingTimeout;
    private PeriodicJob watch;

    /** @param processingTimeout the queue's processing timeout as last heard (zero: none); a task's own replaces it */
    TimeoutWatch(QueueName queue, Logger log, Clock clock, Scheduler scheduler, HeldTasks held, Settler settler,
                 WorkerListener listener, HandlerThreads threads, Supplier<Duration> processingTimeout) {
        this.queue = queue;
        this.log = log;
        this.clock = clock;
        this.scheduler = scheduler;
        this.held = held;
        this.settler = settler;
        this.listener = listener;
        this.threads = threads;
        this.processingTimeout = processingTimeout;
    }

    void start() {
        watch = new PeriodicJob("processing timeout of queue " + queue, scheduler, this::interval, this::giveUpOverdue);
        watch.start(interval());
    }

    /** Stops watching; nothing if never started. */
    void cancel() {
        if (watch != null) {
            watch.cancel();
        }
    }

    /** Held past its deadline: the store takes it back from this worker at its next reclaim. */
    boolean overdue(HeldTask task, long now) {
        long deadline = task.deadline(processingTimeout.get());
        return deadline != HeldTask.NO_DEADLINE && now >= deadline;
    }

    /** Settles as timed out those of the tasks that never started (the rest of a batch found overdue). */
    void giveUp(List<HeldTask> tasks) {
        Settler.claimQueued(tasks).forEach(task -> settler.settled(task, Settlement.TIMED_OUT));
    }

    /**
     * The store handed out again a task this worker still held: the reaper took it back (its processing
     * timeout passed on the server's clock before this worker's), so the earlier delivery is given up as
     * the timeout would have: its handler interrupted and its thread replaced, its outcome dropped.
     */
    void giveUpRedelivered(HeldTask previous) {
        if (threads.giveUp(previous)) {
            log.warn("queue {}: task {} delivered again while its previous run is still going (the reaper returned"
                            + " it); gave up on it, interrupting its handler; {} handler thread(s) replaced",
                    queue, previous.lease.id(), threads.replacements());
            listener.taskSettled(previous.lease, Settlement.TIMED_OUT);
        } else if (previous.claimQueued()) {
            listener.taskSettled(previous.lease, Settlement.TIMED_OUT);
        }
    }

    /** Gives up on every task held past its deadline. */
    private void giveUpOverdue() {
        long now = clock.millis();
        for (HeldTask task : held.snapshot()) {
            if (!overdue(task, now)) {
                continue;
            }
            if (threads.giveUp(task)) {
                log.warn("queue {}: task {} still running {} ms after it was leased, past its deadline; gave up on it"
                                + " (the reaper returns it), interrupting its handler; {} handler thread(s) replaced",
                        queue, task.lease.id(), now - task.leasedAt, threads.replacements());
                settler.settled(task, Settlement.TIMED_OUT);
            } else if (task.claimQueued()) {
                settler.settled(task, Settlement.TIMED_OUT);
            }
        }
    }

    /** A tenth of the shortest timeout among the queue's and the held tasks' own (10 ms..1 s); 1 s if none. */
    private Duration interval() {
        long shortest = processingTimeout.get().toMillis();
        for (HeldTask task : held.snapshot()) {
            long own = task.lease.task().timeout().toMillis();
            if (own > 0 && (shortest == 0 || own < shortest)) {
                shortest = own;
            }
        }
        return shortest == 0 ? IDLE_INTERVAL : Duration.ofMillis(Math.max(10, Math.min(1000, shortest / 10)));
    }
}
