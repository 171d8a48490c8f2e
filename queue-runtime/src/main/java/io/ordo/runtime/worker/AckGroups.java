package io.ordo.runtime.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Groups the acks of finished tasks into few store calls (docs/decisions/worker-ack-grouping.md).
 * A handler thread that finds no ack call in flight sends its ack at once; acks of tasks finishing
 * while a call is in flight wait for it and go together in the next one, up to {@code limit} per call.
 * No timer: nothing waits for more acks to come, only for the call before it. The calls are made on
 * the handler threads, so every ack is sent before the last handler thread returns.
 */
final class AckGroups {
    /** A task waiting for its ack; {@code settled} completes once its outcome has been handled. */
    record PendingAck(HeldTask task, CompletableFuture<Boolean> settled) {
    }

    private final ConcurrentLinkedQueue<PendingAck> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final int limit;
    private final Consumer<List<PendingAck>> send;

    /**
     * @param limit the most acks per group
     * @param send  acks one group and completes each {@link PendingAck#settled} (true: acked); a group
     *              it leaves incomplete is completed with false
     */
    AckGroups(int limit, Consumer<List<PendingAck>> send) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        this.limit = limit;
        this.send = send;
    }

    /**
     * Queues the ack and sends what is queued unless a call is in flight, in which case the thread
     * making it sends this ack next. Its future completes when the ack's outcome was handled.
     */
    void send(PendingAck ack) {
        pending.add(ack);
        drain();
    }

    /** Acks waiting for the call in flight (for tests and gauges). */
    int waiting() {
        return pending.size();
    }

    private void drain() {
        // Re-checked after letting go of the flag: an ack queued just before that is sent by this loop.
        while (!pending.isEmpty() && sending.compareAndSet(false, true)) {
            try {
                List<PendingAck> group = new ArrayList<>(Math.min(limit, 64));
                for (PendingAck next; group.size() < limit && (next = pending.poll()) != null; ) {
                    group.add(next);
                }
                if (!group.isEmpty()) {
                    sendGroup(group);
                }
            } finally {
                sending.set(false);
            }
        }
    }

    private void sendGroup(List<PendingAck> group) {
        try {
            send.accept(group);
        } finally {
            group.forEach(ack -> ack.settled.complete(false)); // no-op for those already settled
        }
    }
}
