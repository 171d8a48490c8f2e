package io.ordo.runtime.worker;

import io.ordo.ports.Ticker;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Decides when each of the worker's fetch loops fetches, how many tasks it asks for and which acks
 * it carries (docs/decisions/worker-ack-on-fetch.md). One monitor for all of it, so:
 * <ul>
 * <li>the loops share the prefetch: a fetch asks for the room left by the tasks held and by the
 *     fetches in flight, plus the tasks whose acks it carries (the store acks them before it takes);</li>
 * <li>at most one fetch waits for work at a time: a loop with no acks to carry does not fetch while
 *     another waiting fetch is out, so an idle worker sends one long poll as with one loop;</li>
 * <li>while the queue has a backlog (the last fetch got all it asked for), a loop fetches once a
 *     {@linkplain #minBatch batch's worth} (half the prefetch) of room or acks has gathered: each call
 *     costs the shared Redis about the same whatever it carries, so under load the calls grow instead of
 *     multiplying. Sooner only when no other prompt fetch is out and an ordered batch waits for an ack's
 *     answer, or when an ack has waited {@link #ACK_DELAY}, so no ack is held back for long. With no
 *     backlog any room is worth a fetch: a new task is taken as soon as it is published. A call that
 *     asked for no task (acks only: the acks another fetch carries count as held until its answer, so
 *     a batch of acks may leave no room) does not tell whether the backlog is gone;</li>
 * <li>an ack is {@linkplain #offer accepted} only while a loop will carry it soon (one is between
 *     fetches or out with a fetch that does not wait); otherwise, and whenever the last such loop
 *     goes away (outage, a suspect running alone, stopping), pending acks are handed back to be sent
 *     on their own, so no ack waits for a long poll.</li>
 * </ul>
 */
final class FetchSlots {
    /**
     * What one fetch does: under {@code incarnation}'s name, ack {@code acks}, then take up to {@code max}
     * tasks, waiting up to {@code waitFor}. {@code others} are pending acks of tasks held under another
     * name, to be sent on their own; a plan with no incarnation carries only those.
     */
    record Plan(Incarnation incarnation, List<AckGroups.PendingAck> acks, List<AckGroups.PendingAck> others,
                int max, Duration waitFor) {
        boolean fetches() {
            return incarnation != null;
        }
    }

    private final int prefetch;
    private final int loops;
    private final int acksPerCall;
    private final Duration fetchWait;
    private final IntSupplier heldTasks;
    private final ArrayDeque<AckGroups.PendingAck> pending = new ArrayDeque<>();
    /** Tasks asked for by the fetches in flight. */
    private int reserved;
    /** Loops not fetching for a while: backing off, running a suspect alone, or gone. */
    private int away;
    private boolean waitingFetchOut;
    /** Fetches in flight that do not wait for work. */
    private int promptFetchesOut;
    /** What a fetch gathers (room, acks) before it goes, unless an ack is waited for. */
    private final int minBatch;
    /** The longest a finished task's ack waits for a batch to gather. */
    static final Duration ACK_DELAY = Duration.ofMillis(20);
    private final long ackDelayNanos;
    private final Ticker ticker;
    /** When the oldest pending ack arrived (on the ticker), if any is pending. */
    private long oldestPendingSince;
    /** The last fetch got all it asked for: more is waiting, so a fetch need not go for a slot or two. */
    private boolean backlog;
    /** Suspects running alone: while any does, nothing is fetched. */
    private int alone;
    private boolean stopping;
    /** The loop retrying after a failed fetch; the others hold still until it gets through. */
    private Object prober;
    private int sleepers;

    /** @param ticker what the waits of acks and of a suspect about to run alone are measured on */
    FetchSlots(int prefetch, int loops, int acksPerCall, Duration fetchWait, IntSupplier heldTasks, Ticker ticker) {
        this(prefetch, loops, acksPerCall, fetchWait, heldTasks, ACK_DELAY, ticker);
    }

    /** @param ackDelay the longest a finished task's ack waits for a batch to gather */
    FetchSlots(int prefetch, int loops, int acksPerCall, Duration fetchWait, IntSupplier heldTasks, Duration ackDelay) {
        this(prefetch, loops, acksPerCall, fetchWait, heldTasks, ackDelay, Ticker.system());
    }

    private FetchSlots(int prefetch, int loops, int acksPerCall, Duration fetchWait, IntSupplier heldTasks,
                       Duration ackDelay, Ticker ticker) {
        this.ticker = ticker;
        this.ackDelayNanos = ackDelay.toNanos();
        this.prefetch = prefetch;
        this.loops = loops;
        this.acksPerCall = acksPerCall;
        this.fetchWait = fetchWait;
        this.heldTasks = heldTasks;
        this.minBatch = Math.max(1, prefetch / 2);
    }

    /**
     * Waits until {@code loop} may fetch, under the name {@code incarnation} gives, and reserves the
     * room of that fetch; null once stopping.
     */
    synchronized Plan next(Object loop, Supplier<Incarnation> incarnation) throws InterruptedException {
        while (!stopping) {
            if (alone == 0 && (prober == null || prober == loop)) {
                Incarnation name = incarnation.get();
                List<AckGroups.PendingAck> others = new ArrayList<>(0);
                List<AckGroups.PendingAck> acks = takeAcks(name, others);
                int room = prefetch - heldTasks.getAsInt() - reserved + acks.size();
                boolean worthIt = worthACall(room, acks);
                if (worthIt && (!acks.isEmpty() || (room > 0 && !waitingFetchOut))) {
                    int max = Math.max(0, room);
                    // a fetch carrying acks never waits: their answers are awaited (held tasks, ordered batches)
                    Duration wait = acks.isEmpty() ? fetchWait : Duration.ZERO;
                    reserved += max;
                    waitingFetchOut |= !wait.isZero();
                    promptFetchesOut += wait.isZero() ? 1 : 0;
                    return new Plan(name, acks, others, max, wait);
                }
                for (int i = acks.size() - 1; i >= 0 && !worthIt; i--) {
                    pending.addFirst(acks.get(i)); // not yet: they go with the next fetch, in their order
                }
                if (!others.isEmpty()) {
                    return new Plan(null, List.of(), others, 0, Duration.ZERO);
                }
            }
            sleepers++;
            try {
                long ackDue = pending.isEmpty() ? 100
                        : Math.max(1, (oldestPendingSince + ackDelayNanos - ticker.nanos()) / 1_000_000 + 1);
                wait(Math.min(100, ackDue));
            } finally {
                sleepers--;
            }
        }
        return null;
    }

    /** The fetch of {@code plan} returned {@code taken} tasks, now held. */
    synchronized void returned(Plan plan, int taken) {
        if (plan.max() > 0) { // a call that asked for nothing tells nothing of the queue
            backlog = taken == plan.max();
        }
        returned(plan);
    }

    /** The fetch of {@code plan} returned (with tasks or not) and its tasks, if any, are held now. */
    synchronized void returned(Plan plan) {
        reserved -= plan.max();
        if (!plan.waitFor().isZero()) {
            waitingFetchOut = false;
        } else if (plan.fetches()) {
            promptFetchesOut--;
        }
        wakeAll();
    }

    /**
     * The fetch of {@code plan} by {@code loop} failed: that loop backs off and retries for all unless
     * another one does (whether it does); in one step, so no other loop fetches in between.
     */
    synchronized boolean failed(Object loop, Plan plan) {
        if (prober == null) {
            prober = loop;
        }
        returned(plan);
        return prober == loop;
    }

    /** A fetch of {@code loop} got through: the others may fetch again. */
    synchronized void succeeded(Object loop) {
        if (prober == loop) {
            prober = null;
            wakeAll();
        }
    }

    /**
     * Offers a finished task's ack to ride on a fetch; false when no fetch will carry it soon, and
     * the caller sends it on its own.
     */
    synchronized boolean offer(AckGroups.PendingAck ack) {
        if (stopping || alone > 0 || prober != null || loops - away - (waitingFetchOut ? 1 : 0) <= 0) {
            return false;
        }
        if (pending.isEmpty()) {
            oldestPendingSince = ticker.nanos();
        }
        pending.add(ack);
        wakeIfALoopMayGo();
        return true;
    }

    /** A loop stops fetching for a while (or for good); the acks left to no loop, to be sent on their own. */
    synchronized List<AckGroups.PendingAck> goAway() {
        away++;
        return orphaned();
    }

    synchronized void comeBack() {
        away--;
    }

    /**
     * A suspect runs alone (docs/decisions/poison-isolation.md): no other loop fetches until
     * {@link #endAlone}; waits until the other fetches in flight are back (their tasks are then held).
     * Returns the pending acks, to be sent on their own.
     */
    synchronized List<AckGroups.PendingAck> beginAlone(Duration longest) throws InterruptedException {
        alone++;
        away++;
        long deadline = ticker.nanos() + longest.toNanos();
        while (reserved > 0 && !stopping && ticker.nanos() < deadline) {
            wait(Math.max(1, Math.min(100, (deadline - ticker.nanos()) / 1_000_000)));
        }
        return drain();
    }

    synchronized void endAlone() {
        alone--;
        away--;
        wakeAll();
    }

    /** No fetch from now on; the pending acks, to be sent on their own. */
    synchronized List<AckGroups.PendingAck> stop() {
        stopping = true;
        wakeAll();
        return drain();
    }

    /** Room may have opened: a task was settled. */
    void wake() {
        synchronized (this) {
            wakeIfALoopMayGo();
        }
    }

    /**
     * Wakes the sleeping loops only when one of them may fetch now (a task settled under load mostly
     * frees too little room for a call of its own): every needless wake-up is a context switch per task.
     */
    private void wakeIfALoopMayGo() {
        if (sleepers == 0) {
            return;
        }
        int room = prefetch - heldTasks.getAsInt() - reserved + pending.size();
        if (worthACall(room, pending) && (!pending.isEmpty() || (room > 0 && !waitingFetchOut))) {
            notifyAll();
        }
    }

    /**
     * Whether a call now is worth its cost: a batch's worth of room or acks, or acks that must not wait
     * (an ordered batch goes on only once its ack is answered; no ack waits longer than ACK_DELAY).
     */
    private boolean worthACall(int room, java.util.Collection<AckGroups.PendingAck> acks) {
        if (Math.max(room, acks.size()) >= minBatch || (!backlog && room > 0)) {
            return true; // a batch's worth, or the queue ran dry: listen for new work with any room
        }
        if (acks.isEmpty()) {
            return false;
        }
        if (ticker.nanos() - oldestPendingSince >= ackDelayNanos) {
            return true;
        }
        if (promptFetchesOut > 0) {
            return false; // its answer brings the next chance soon
        }
        for (AckGroups.PendingAck ack : acks) {
            if (ack.task().lease.partition().isOrdered()) {
                return true;
            }
        }
        return false;
    }

    /** Acks waiting for a fetch to carry them. */
    synchronized int waiting() {
        return pending.size();
    }

    private void wakeAll() {
        if (sleepers > 0) {
            notifyAll();
        }
    }

    private List<AckGroups.PendingAck> orphaned() {
        return loops - away - (waitingFetchOut ? 1 : 0) > 0 && prober == null && alone == 0 ? List.of() : drain();
    }

    private List<AckGroups.PendingAck> drain() {
        List<AckGroups.PendingAck> all = new ArrayList<>(pending);
        pending.clear();
        return all;
    }

    /** Up to a call's worth of pending acks held under {@code name}; those under other names go to {@code others}. */
    private List<AckGroups.PendingAck> takeAcks(Incarnation name, List<AckGroups.PendingAck> others) {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<AckGroups.PendingAck> acks = new ArrayList<>(Math.min(pending.size(), acksPerCall));
        for (Iterator<AckGroups.PendingAck> it = pending.iterator(); it.hasNext() && acks.size() < acksPerCall; ) {
            AckGroups.PendingAck ack = it.next();
            it.remove();
            (ack.task().incarnation == name ? acks : others).add(ack);
        }
        return acks;
    }
}
