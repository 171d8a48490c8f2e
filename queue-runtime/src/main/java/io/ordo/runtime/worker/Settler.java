package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.AckOutcome;
import io.ordo.ports.FailOutcome;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.RejectOutcome;
import io.ordo.ports.Rejection;
import io.ordo.ports.ReleaseOutcome;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.TaskSnapshot;
import io.ordo.ports.TaskConsuming;
import io.ordo.ports.TaskInspection;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Tells the store what became of the tasks the worker held, and the listeners with it: acks (on the
 * next fetch, grouped, or each on its own), failures, retries, rate limits and tasks returned
 * unprocessed. Each store call waits out an unreachable backend with backoff until {@code pause} is cut
 * (at the end of shutdown's grace period); a task the backend could not be told of is left in flight
 * under a retired consumer name, for the reaper to return (docs/decisions/worker-backend-outage.md).
 */
final class Settler {
    private final TaskConsuming store;
    /** Asked whether a task is gone, when an ack's answer was lost. */
    private final TaskInspection tasks;
    private final QueueName queue;
    private final Logger log;
    private final HeldTasks held;
    private final WorkerListener listener;
    private final BackendStatus backend;
    private final Pause pause;
    private final IntFunction<Duration> backoff;
    private final StoreClosedAlarm storeClosed;
    private final FetchSlots slots;
    private final boolean ackOnFetch;
    private final Supplier<Incarnation> fetchingAs;
    /** Null when acks are not grouped: each task is then acked by its own call. */
    private final AckGroups ackGroups;

    /**
     * @param pause      waits between retries of a store call; cut, it makes them give up
     * @param backoff    the pause after so many failed calls in a row
     * @param slots      carries acks on the next fetch, when {@code ackOnFetch}
     * @param fetchingAs the consumer name the worker fetches under now: only its tasks' acks ride on fetches
     * @param ackGroup   the most acks per grouped call; 0: acks are not grouped
     */
    Settler(TaskConsuming store, TaskInspection tasks, Logger log, HeldTasks held, WorkerListener listener,
            BackendStatus backend, Pause pause, IntFunction<Duration> backoff, StoreClosedAlarm storeClosed,
            FetchSlots slots, boolean ackOnFetch, Supplier<Incarnation> fetchingAs, int ackGroup) {
        this.store = store;
        this.tasks = tasks;
        this.queue = store.queue();
        this.log = log;
        this.held = held;
        this.listener = listener;
        this.backend = backend;
        this.pause = pause;
        this.backoff = backoff;
        this.storeClosed = storeClosed;
        this.slots = slots;
        this.ackOnFetch = ackOnFetch;
        this.fetchingAs = fetchingAs;
        this.ackGroups = ackGroup > 0 ? new AckGroups(ackGroup, group -> sendAcks(group, false)) : null;
    }

    /** Acks queued behind the grouped ack call in flight. */
    int acksQueued() {
        return ackGroups == null ? 0 : ackGroups.waiting();
    }

    /** Settles a task whose handler finished with {@code outcome}; whether the rest of its ordered batch goes on. */
    boolean settle(HeldTask task, Outcome outcome, List<HeldTask> rest) {
        Lease lease = task.lease;
        if (outcome instanceof Outcome.Success) {
            AckGroups.PendingAck ack = new AckGroups.PendingAck(task, new CompletableFuture<>());
            // on the worker's next fetch if one comes soon; else on its own (grouped) as the handler returns
            if (!(ackOnFetch && task.incarnation == fetchingAs.get() && slots.offer(ack))) {
                if (ackGroups != null) {
                    ackGroups.send(ack);
                } else {
                    sendAcks(List.of(ack), false);
                }
            }
            // nothing of a lone task's unit waits for the answer: the thread moves on; the rest of an
            // ordered batch runs only once this ack is known to have gone through
            return rest.isEmpty() || ack.settled().join() || returnQueued(rest);
        }
        if (outcome instanceof Outcome.Result result) {
            Map<TaskId, AckOutcome> acked = call(() -> store.complete(lease.consumer(),
                    Map.of(lease.id(), (byte[]) result.value())));
            if (acked == null) {
                return unsettled(task);
            }
            boolean done = acked.get(lease.id()) == AckOutcome.ACKED;
            settled(task, done ? Settlement.PROCESSED : Settlement.LEASE_LOST);
            return done || returnQueued(rest);
        }
        if (outcome instanceof Outcome.Fail fail) {
            Map<TaskId, FailOutcome> failed = call(() -> store.fail(lease.consumer(), List.of(lease.id()), fail.reason()));
            if (failed == null) {
                return unsettled(task);
            }
            FailOutcome answer = failed.get(lease.id());
            boolean done = answer == FailOutcome.DEAD_LETTERED || answer == FailOutcome.CANCELLED;
            settled(task, answer == FailOutcome.DEAD_LETTERED ? Settlement.DEAD_LETTERED
                    : answer == FailOutcome.CANCELLED ? Settlement.CANCELLED : Settlement.LEASE_LOST);
            return done || returnQueued(rest); // after a dead letter an ordered batch goes on (semantics: fail)
        }
        if (outcome instanceof Outcome.RetryAfter retry) {
            return reject(task, Rejection.retryAfter(retry.delay(), retry.reason()), rest);
        }
        if (outcome instanceof Outcome.PassOn passOn) {
            return passOn(task, passOn, rest);
        }
        return rateLimit(task, (Outcome.RateLimited) outcome, rest);
    }

    /**
     * Waits {@code after} on the handler's thread (cut short when the grace period ends), then returns the
     * task and the rest of its batch unprocessed, the attempt not counted, for a worker that can handle it.
     */
    private boolean passOn(HeldTask task, Outcome.PassOn passOn, List<HeldTask> rest) {
        pause.await(passOn.after());
        return giveBack(task, rest, Settlement.PASSED_ON, () -> { });
    }

    /**
     * Gives back a task whose cancellation was asked (its handler stopped, or was given up) and the rest of
     * its ordered batch: the store deletes it, not retried nor dead-lettered, and returns the rest
     * unprocessed, so the partition goes on (docs/task-control.md). False: an ordered batch stops here.
     */
    boolean giveBackCancelled(HeldTask task, List<HeldTask> rest) {
        return giveBack(task, rest, Settlement.RELEASED, () -> { });
    }

    /**
     * Releases a claimed task with those of {@code rest} that never started (the store returns an ordered
     * batch's tail with it anyway), after {@code first}, in one try: the task is settled as
     * {@code asReleased} (or cancelled, or lease lost, as the store answers), the rest as returned with
     * the batch. False, so an ordered batch stops here.
     */
    private boolean giveBack(HeldTask task, List<HeldTask> rest, Settlement asReleased, Runnable first) {
        Lease lease = task.lease;
        List<HeldTask> batch = claimQueued(rest);
        List<TaskId> ids = new ArrayList<>();
        ids.add(lease.id());
        batch.forEach(later -> ids.add(later.lease.id()));
        Map<TaskId, ReleaseOutcome> released = call(() -> {
            first.run();
            return store.release(lease.consumer(), ids);
        });
        if (released == null) {
            unsettled(task);
            batch.forEach(this::unsettled);
            return false;
        }
        settled(task, settlementOf(released.get(lease.id()), asReleased));
        for (HeldTask later : batch) {
            settled(later, settlementOf(released.get(later.lease.id()), Settlement.RETURNED_WITH_BATCH));
        }
        return false;
    }

    /** What a release's answer makes of a task: {@code asReleased}, cancelled (it was marked), or lease lost. */
    private static Settlement settlementOf(ReleaseOutcome answer, Settlement asReleased) {
        return answer == ReleaseOutcome.RELEASED ? asReleased
                : answer == ReleaseOutcome.CANCELLED ? Settlement.CANCELLED : Settlement.LEASE_LOST;
    }

    /**
     * Acks tasks on their own, one store call per consumer name, and settles each with its own
     * outcome. {@code sentBefore}: a call that carried them failed, so a refusal may mean it went through.
     */
    void sendAcks(List<AckGroups.PendingAck> group, boolean sentBefore) {
        if (group.isEmpty()) {
            return;
        }
        byConsumer(group, AckGroups.PendingAck::task).forEach((consumer, acks) -> {
            List<TaskId> ids = acks.stream().map(ack -> ack.task().lease.id()).toList();
            AtomicInteger tries = new AtomicInteger(sentBefore ? 1 : 0);
            Map<TaskId, AckOutcome> acked = call(() -> {
                tries.incrementAndGet();
                return store.ack(consumer, ids);
            });
            settleAcks(acks, acked, tries.get() > 1);
        });
    }

    /**
     * Settles each task with its ack's answer (none: the backend could not be told) and completes
     * its future with whether it was acked. {@code retried}: the acks were sent more than once.
     */
    void settleAcks(List<AckGroups.PendingAck> acks, Map<TaskId, AckOutcome> answers, boolean retried) {
        boolean roomOpened = false;
        for (AckGroups.PendingAck ack : acks) {
            HeldTask task = ack.task();
            boolean done = false;
            if (answers == null) {
                unsettled(task);
            } else {
                done = answers.get(task.lease.id()) == AckOutcome.ACKED
                        || (retried && ackedBeforeItsAnswerWasLost(task.lease));
                // the fetch loops are told once for the whole answer: each telling takes their monitor
                roomOpened |= held.removeQuietly(task);
                listener.taskSettled(task.lease, done ? Settlement.PROCESSED : Settlement.LEASE_LOST);
            }
            ack.settled().complete(done);
        }
        if (roomOpened) {
            held.roomOpened();
        }
    }

    /**
     * An ack sent again after a failure is refused when the first one went through and only its
     * answer was lost; then the task is gone. (If it was reclaimed instead, it is still there.)
     */
    private boolean ackedBeforeItsAnswerWasLost(Lease lease) {
        Optional<TaskSnapshot> now = call(() -> tasks.get(lease.id()));
        return now != null && now.isEmpty();
    }

    /** Back with a delay; in an ordered batch the store returns the rest with it (SPEC rule 5). */
    private boolean reject(HeldTask task, Rejection rejection, List<HeldTask> rest) {
        Lease lease = task.lease;
        List<HeldTask> batch = claimQueued(rest);
        Map<TaskId, RejectOutcome> rejected = call(() -> store.reject(lease.consumer(), List.of(lease.id()), rejection));
        if (rejected == null) {
            unsettled(task);
            batch.forEach(this::unsettled);
            return false;
        }
        RejectOutcome outcome = rejected.get(lease.id());
        settled(task, outcome == RejectOutcome.RETURNED ? Settlement.RETRIED
                : outcome == RejectOutcome.DEAD_LETTERED ? Settlement.DEAD_LETTERED
                : outcome == RejectOutcome.CANCELLED ? Settlement.CANCELLED : Settlement.LEASE_LOST);
        List<HeldTask> stillHeld = new ArrayList<>();
        for (HeldTask later : batch) {
            RejectOutcome laterOutcome = rejected.get(later.lease.id());
            if (laterOutcome == RejectOutcome.RETURNED_WITH_BATCH || laterOutcome == RejectOutcome.CANCELLED) {
                settled(later, laterOutcome == RejectOutcome.CANCELLED ? Settlement.CANCELLED
                        : Settlement.RETURNED_WITH_BATCH);
            } else {
                stillHeld.add(later);
            }
        }
        release(stillHeld);
        return false;
    }

    /**
     * Blocks the partition, then returns the task (and the rest of its batch) unprocessed: blocking
     * first means no other consumer can take it in between, and the attempt does not count
     * (docs/decisions/worker-rate-limits.md).
     */
    private boolean rateLimit(HeldTask task, Outcome.RateLimited limit, List<HeldTask> rest) {
        return giveBack(task, rest, Settlement.RATE_LIMITED,
                () -> store.blockPartition(task.lease.partition(), limit.blockFor()));
    }

    /** Returns those of the tasks that never started, unprocessed; false, so an ordered batch stops here. */
    boolean returnQueued(List<HeldTask> tasks) {
        release(claimQueued(tasks));
        return false;
    }

    /** Returns every held task that has not started (at shutdown). */
    void releaseQueued() {
        returnQueued(held.snapshot());
    }

    /** Returns every task whose handler outlived the grace period (its thread is interrupted next). */
    void releaseRunning() {
        List<HeldTask> overdue = held.snapshot().stream().filter(HeldTask::claimRunning).toList();
        if (!overdue.isEmpty()) {
            log.warn("queue {}: {} task(s) still running after the grace period; interrupting them and returning their tasks",
                    queue, overdue.size());
        }
        release(overdue);
    }

    /** Returns claimed tasks unprocessed, their attempt not counted; one call per consumer name. */
    private void release(List<HeldTask> tasks) {
        byConsumer(tasks, Function.identity()).forEach((consumer, group) -> {
            List<TaskId> ids = group.stream().map(task -> task.lease.id()).toList();
            Map<TaskId, ReleaseOutcome> released = call(() -> store.release(consumer, ids));
            for (HeldTask task : group) {
                if (released == null) {
                    unsettled(task);
                } else {
                    settled(task, settlementOf(released.get(task.lease.id()), Settlement.RELEASED));
                }
            }
        });
    }

    /** Groups by the consumer name each task was leased under, in order: one store call per name. */
    private static <E> Map<ConsumerId, List<E>> byConsumer(List<E> items, Function<E, HeldTask> task) {
        Map<ConsumerId, List<E>> byConsumer = new LinkedHashMap<>();
        items.forEach(item -> byConsumer.computeIfAbsent(task.apply(item).lease.consumer(), consumer -> new ArrayList<>()).add(item));
        return byConsumer;
    }

    /** The tasks that had not started, now the caller's to settle. */
    static List<HeldTask> claimQueued(List<HeldTask> tasks) {
        return tasks.stream().filter(HeldTask::claimQueued).toList();
    }

    /** The task left the worker's hands as {@code settlement}. */
    void settled(HeldTask task, Settlement settlement) {
        held.remove(task);
        listener.taskSettled(task.lease, settlement);
    }

    /**
     * The backend could not be told what became of the task. It stays in flight under the task's
     * consumer name, which is retired so it expires and the reaper returns the task.
     */
    private boolean unsettled(HeldTask task) {
        task.incarnation.retire();
        held.remove(task);
        if (!storeClosed.raised()) { // else said once, by the alarm
            log.warn("queue {}: could not settle task {}; it stays in flight until the reaper returns it", queue,
                    task.lease.id());
        }
        return false;
    }

    /**
     * A store call that waits out an unreachable backend with backoff (until shutdown's grace
     * period ends); null when it gave up.
     */
    private <R> R call(Supplier<R> operation) {
        for (int failures = 1; ; failures++) {
            try {
                R result = operation.get();
                backend.succeeded();
                return result;
            } catch (QueueUnavailableException e) {
                backend.failed(e);
                if (!pause.await(backoff.apply(failures))) {
                    return null;
                }
            } catch (StoreClosedException e) {
                storeClosed.raise(e);
                return null;
            } catch (RuntimeException e) {
                log.error("queue {}: the backend refused a call: {}", queue, BackendStatus.oneLine(e));
                return null;
            }
        }
    }
}
