package io.ordo.sharding;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.TaskId;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The waiting consumes of a sharded queue: every shard is waited on at once, so work on any shard wakes
 * a waiting consumer as soon as that shard's own wait would. One wait per consumer and shard runs at a
 * time, a slice long, and the waiting calls of one consumer share them (a worker's fetch loops use one
 * consumer name). Tasks a wait takes once no call of its consumer is waiting any more, or beyond what the
 * calls asked for, are released at once (back in place, no attempt counted): no consumer keeps tasks it did
 * not ask for.
 */
final class ShardWaits {
    /** A consume on one shard that waits up to {@code slice}; remembers the leases' shard for routing. */
    interface ShardConsume {
        List<Lease> consume(int shard, ConsumerId consumer, int max, Duration slice);
    }

    /** Gives leases back to the shards they came from. */
    interface Release {
        void release(ConsumerId consumer, List<TaskId> ids);
    }

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final int shards;
    private final Duration slice;
    private final ShardConsume shardConsume;
    private final Release release;
    private final ExecutorService waits = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "ordo-shard-wait-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });
    /** Guarded by {@code this}. */
    private final Map<ConsumerId, Waiting> byConsumer = new HashMap<>();

    ShardWaits(int shards, Duration slice, ShardConsume shardConsume, Release release) {
        this.shards = shards;
        this.slice = slice;
        this.shardConsume = shardConsume;
        this.release = release;
    }

    /** One consumer's waits: which shards are being waited on, and what they brought that no call took yet. */
    private static final class Waiting {
        final boolean[] pending;
        final ArrayDeque<Lease> arrived = new ArrayDeque<>();
        int calls;
        RuntimeException failure;

        Waiting(int shards) {
            pending = new boolean[shards];
        }

        boolean idle() {
            if (calls > 0) {
                return false;
            }
            for (boolean waiting : pending) {
                if (waiting) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Up to {@code max} tasks from whichever shards have work first, or none once {@code deadlineNanos} passes. */
    List<Lease> await(ConsumerId consumer, int max, long deadlineNanos) {
        List<Lease> taken = List.of();
        List<Lease> unwanted = List.of();
        synchronized (this) {
            Waiting waiting = byConsumer.computeIfAbsent(consumer, c -> new Waiting(shards));
            waiting.calls++;
            try {
                taken = awaitArrival(consumer, waiting, max, deadlineNanos);
            } finally {
                waiting.calls--;
                if (waiting.calls == 0 && !waiting.arrived.isEmpty()) {
                    unwanted = new ArrayList<>(waiting.arrived);
                    waiting.arrived.clear();
                }
                if (waiting.idle()) {
                    byConsumer.remove(consumer, waiting);
                }
            }
        }
        giveBack(consumer, unwanted);
        return taken;
    }

    /** Holds the monitor, except while waiting on it. */
    private List<Lease> awaitArrival(ConsumerId consumer, Waiting waiting, int max, long deadlineNanos) {
        while (true) {
            if (!waiting.arrived.isEmpty()) {
                List<Lease> taken = new ArrayList<>(Math.min(max, waiting.arrived.size()));
                while (taken.size() < max && !waiting.arrived.isEmpty()) {
                    taken.add(waiting.arrived.poll());
                }
                return taken;
            }
            if (waiting.failure != null) {
                RuntimeException failure = waiting.failure;
                waiting.failure = null;
                throw failure;
            }
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0 || Thread.currentThread().isInterrupted()) {
                return List.of();
            }
            Duration wait = Duration.ofNanos(remaining).compareTo(slice) < 0 ? Duration.ofNanos(remaining) : slice;
            for (int shard = 0; shard < shards; shard++) {
                if (!waiting.pending[shard]) {
                    waiting.pending[shard] = true;
                    int which = shard;
                    waits.execute(() -> waitOn(which, consumer, waiting, max, wait));
                }
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
    }

    private void waitOn(int shard, ConsumerId consumer, Waiting waiting, int max, Duration wait) {
        List<Lease> leases = List.of();
        RuntimeException failure = null;
        try {
            leases = shardConsume.consume(shard, consumer, max, wait);
        } catch (RuntimeException e) {
            failure = e;
        }
        List<Lease> unwanted = List.of();
        synchronized (this) {
            waiting.pending[shard] = false;
            if (waiting.calls > 0) {
                waiting.arrived.addAll(leases);
                if (failure != null && leases.isEmpty()) {
                    waiting.failure = failure;
                }
            } else {
                unwanted = leases; // every call stopped waiting meanwhile (a failure then has no one to tell)
            }
            if (waiting.idle()) {
                byConsumer.remove(consumer, waiting);
            }
            notifyAll();
        }
        giveBack(consumer, unwanted);
    }

    private void giveBack(ConsumerId consumer, List<Lease> leases) {
        if (leases.isEmpty()) {
            return;
        }
        try {
            release.release(consumer, leases.stream().map(Lease::id).toList());
        } catch (RuntimeException e) {
            // the shard is unreachable or closed: the leases stay with the consumer, whose heartbeat then
            // decides (a live one lets the processing timeout or its next stop give them back)
        }
    }
}
