package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One consumer name the worker fetches or holds tasks under. A fetch whose answer was lost (the
 * backend went away mid-call) may have leased tasks the worker never saw; then the name is
 * retired: no more fetches under it, heartbeats only while tasks the worker knows of remain, after
 * which it expires and the reaper returns what it may still hold
 * (docs/decisions/worker-backend-outage.md).
 */
final class Incarnation {
    final ConsumerId consumer;
    private final AtomicInteger tracked = new AtomicInteger();
    private volatile long renewedAt;
    private volatile boolean retired;

    Incarnation(ConsumerId consumer, long now) {
        this.consumer = consumer;
        this.renewedAt = now;
    }

    /** The backend extended this consumer's life at {@code at} (a heartbeat or fetch that started then). */
    void renewed(long at) {
        if (at > renewedAt) {
            renewedAt = at;
        }
    }

    /** Whether leases held under this name can still be trusted: renewed less than a TTL ago. */
    boolean leaseValidAt(long now, long ttlMillis) {
        return now < renewedAt + ttlMillis;
    }

    void retire() {
        retired = true;
    }

    boolean retired() {
        return retired;
    }

    void track(int count) {
        tracked.addAndGet(count);
    }

    void untrack() {
        tracked.decrementAndGet();
    }

    /** Still worth a heartbeat: in use for fetching, or holding tasks the worker knows of. */
    boolean needsHeartbeat() {
        return !retired || tracked.get() > 0;
    }
}
