package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What the worker does once the store says the cancellation of a task it holds was asked (a heartbeat's
 * answer, an ack-and-consume's or a lease extension's; docs/decisions/cancelling-running-tasks.md): the
 * task's context says so at once; a handler still running halfway through the cancel grace is interrupted,
 * and one still running at its end is given up, a new thread taking its place: the worker has its capacity
 * back within the grace, however deaf the handler. However the run ends, the task is given back and the store
 * deletes it. A handler that returned before the worker heard of the cancellation keeps its outcome.
 */
final class Cancellations {
    private final QueueName queue;
    private final Logger log;
    private final HeldTasks held;
    private final Settler settler;
    private final HandlerThreads threads;
    private final Scheduler scheduler;
    private final WorkerListener listener;
    private final Duration grace;

    /**
     * @param grace how long a handler has to stop once its context says cancelled: it is interrupted halfway,
     *              and its thread given up at the end
     */
    Cancellations(QueueName queue, Logger log, HeldTasks held, Settler settler, HandlerThreads threads,
                  Scheduler scheduler, WorkerListener listener, Duration grace) {
        this.queue = queue;
        this.log = log;
        this.held = held;
        this.settler = settler;
        this.threads = threads;
        this.scheduler = scheduler;
        this.listener = listener;
        this.grace = grace;
    }

    /** The store says the cancellation of these tasks {@code consumer} holds was asked (again, possibly). */
    void requested(ConsumerId consumer, Set<TaskId> ids) {
        for (TaskId id : ids) {
            HeldTask task = held.get(id);
            if (task != null && task.lease.consumer().equals(consumer)) {
                requested(task);
            }
        }
    }

    /** The cancellation of a held task was asked: its context says so from now on, and the grace starts. */
    void requested(HeldTask task) {
        if (!task.requestCancel()) {
            return; // heard of before, or its handler has returned: its outcome stands
        }
        log.info("queue {}: the cancellation of task {} was asked; its handler, if running, has {} ms to stop",
                queue, task.lease.id(), grace.toMillis());
        scheduler.schedule(() -> halfwayThroughGrace(task), grace.dividedBy(2));
    }

    /** A task whose cancellation was asked before it started, now claimed: given back without running. */
    void notStarted(HeldTask task, List<HeldTask> rest) {
        listener.taskCancelled(task.lease, CancelledRun.NOT_STARTED);
        settler.giveBackCancelled(task, rest);
    }

    /** The handler of a task told of its cancellation returned or threw: the task is given back. */
    void handlerStopped(HeldTask task, List<HeldTask> rest) {
        listener.taskCancelled(task.lease, task.interruptedForCancel() ? CancelledRun.INTERRUPTED : CancelledRun.STOPPED);
        settler.giveBackCancelled(task, rest);
    }

    private void halfwayThroughGrace(HeldTask task) {
        if (task.interruptForCancel()) {
            log.info("queue {}: the handler of cancelled task {} did not stop within {} ms; interrupting it", queue,
                    task.lease.id(), grace.dividedBy(2).toMillis());
            scheduler.schedule(() -> giveUp(task), grace.minus(grace.dividedBy(2)));
        }
    }

    /**
     * The handler ignored its interrupt: its thread is given up (replaced, so the worker keeps its capacity) and
     * the task given back with the rest of its ordered batch, on a handler thread (a store call may wait out an
     * outage, which the scheduler's threads must not).
     */
    private void giveUp(HeldTask task) {
        if (!threads.giveUp(task)) {
            return; // it returned after the interrupt
        }
        log.warn("queue {}: the handler of cancelled task {} ignores its interrupt; giving its thread up and the task"
                + " back; {} handler thread(s) replaced", queue, task.lease.id(), threads.replacements());
        listener.taskCancelled(task.lease, CancelledRun.ABANDONED);
        List<HeldTask> rest = held.laterInBatch(task);
        threads.executeOrRunHere(() -> settler.giveBackCancelled(task, rest));
    }
}
