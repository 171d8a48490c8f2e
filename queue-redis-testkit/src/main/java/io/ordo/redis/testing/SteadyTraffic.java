package io.ordo.redis.testing;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Lease;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.TaskId;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.TaskStore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishers and consumers working one queue through the store port without pause, while a test breaks
 * the Redis under them. It keeps what it needs to count losses: every task id whose publish was
 * acknowledged (and when), every id a consumer received; and when each side first failed and first
 * succeeded again. A retryable {@link QueueUnavailableException} is expected during an outage and only
 * counted; any other exception is kept as unexpected.
 */
final class SteadyTraffic implements AutoCloseable {
    private static final Duration CONSUME_WAIT = Duration.ofMillis(200);
    private static final long BACKOFF_MILLIS = 20;
    /** A steady rate (under a thousand a second per publisher) that the consumers keep up with. */
    private static final long PUBLISH_INTERVAL_MILLIS = 1;

    private final TaskStore store;
    private final List<Thread> publishers = new ArrayList<>();
    private final List<Thread> consumers = new ArrayList<>();
    private volatile boolean publishing = true;
    private volatile boolean consuming = true;

    /** Acknowledged publishes: task id and the System.nanoTime() of the acknowledgement. */
    final Map<String, Long> confirmed = new ConcurrentHashMap<>();
    final Set<String> consumed = ConcurrentHashMap.newKeySet();
    final AtomicInteger publishFailures = new AtomicInteger();
    final AtomicInteger consumeFailures = new AtomicInteger();
    final List<Throwable> unexpected = new CopyOnWriteArrayList<>();
    /** The message of the latest 'unavailable', for a test's failure message. */
    volatile String lastFailure = "none";
    private final AtomicLong firstPublishFailure = new AtomicLong();
    private final AtomicLong publishRecovered = new AtomicLong();
    private final AtomicLong firstConsumeFailure = new AtomicLong();
    private final AtomicLong consumeRecovered = new AtomicLong();

    SteadyTraffic(TaskStore store, int publisherThreads, int consumerThreads) {
        this.store = store;
        for (int i = 0; i < publisherThreads; i++) {
            int index = i;
            publishers.add(start("publisher-" + i, () -> publish(index)));
        }
        for (int i = 0; i < consumerThreads; i++) {
            ConsumerId consumer = ConsumerId.of("consumer-" + i);
            consumers.add(start("consumer-" + i, () -> consume(consumer)));
        }
    }

    private static Thread start(String name, Runnable loop) {
        Thread thread = new Thread(loop, "steady-traffic-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void publish(int index) {
        long sequence = 0;
        while (publishing) {
            String id = "p" + index + "-" + sequence++;
            long startedAt = System.nanoTime();
            try {
                store.publish(List.of(NewTask.builder(Partition.of("part-" + (sequence % 8)),
                        ("payload " + id).getBytes(StandardCharsets.UTF_8)).id(id).build()));
                long now = System.nanoTime();
                confirmed.put(id, now);
                recovered(firstPublishFailure, publishRecovered, startedAt, now);
                pause(PUBLISH_INTERVAL_MILLIS);
            } catch (QueueUnavailableException e) {
                lastFailure = "publish: " + e.getMessage();
                failed(firstPublishFailure, publishFailures, startedAt);
            } catch (RuntimeException e) {
                unexpected.add(e);
                pause(BACKOFF_MILLIS);
            }
        }
    }

    private void consume(ConsumerId consumer) {
        while (consuming) {
            long startedAt = System.nanoTime();
            try {
                List<Lease> leases = store.consume(consumer, 20, CONSUME_WAIT);
                leases.forEach(lease -> consumed.add(lease.id().value()));
                if (!leases.isEmpty()) {
                    store.ack(consumer, leases.stream().map(Lease::id).toList());
                }
                recovered(firstConsumeFailure, consumeRecovered, startedAt, System.nanoTime());
            } catch (QueueUnavailableException e) {
                lastFailure = "consume: " + e.getMessage();
                failed(firstConsumeFailure, consumeFailures, startedAt);
            } catch (RuntimeException e) {
                unexpected.add(e);
                pause(BACKOFF_MILLIS);
            }
        }
    }

    private static void failed(AtomicLong firstFailure, AtomicInteger failures, long at) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(0, at);
        pause(BACKOFF_MILLIS);
    }

    /** The first call that began after the first failure and succeeded marks the recovery. */
    private static void recovered(AtomicLong firstFailure, AtomicLong recovered, long startedAt, long now) {
        long failedAt = firstFailure.get();
        if (failedAt != 0 && startedAt > failedAt) {
            recovered.compareAndSet(0, now);
        }
    }

    /** Waits until publishes are acknowledged and consumers (if any) receive tasks; false on timeout. */
    boolean awaitFlowing(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (confirmed.size() >= 50 && (consumers.isEmpty() || consumed.size() >= 10)) {
                return true;
            }
            pause(20);
        }
        return false;
    }

    /** Waits until publishers (and consumers, if any) have failed and then succeeded again; false on timeout. */
    boolean awaitRecovery(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean publishersBack = firstPublishFailure.get() == 0 || publishRecovered.get() != 0;
            boolean consumersBack = consumers.isEmpty() || firstConsumeFailure.get() == 0 || consumeRecovered.get() != 0;
            if (publishersBack && consumersBack && publishedSince(System.nanoTime() - 200_000_000L) > 0) {
                return true;
            }
            pause(20);
        }
        return false;
    }

    /** Milliseconds from {@code sinceNanos} to the first acknowledged publish after the publishers' first failure. */
    long publishOutageMillis(long sinceNanos) {
        return publishRecovered.get() == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(publishRecovered.get() - sinceNanos);
    }

    /** Milliseconds from {@code sinceNanos} to the first successful consume after the consumers' first failure. */
    long consumeOutageMillis(long sinceNanos) {
        return consumeRecovered.get() == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(consumeRecovered.get() - sinceNanos);
    }

    /** Publishes acknowledged at or after {@code sinceNanos}. */
    long publishedSince(long sinceNanos) {
        return confirmed.values().stream().filter(at -> at >= sinceNanos).count();
    }

    /** Publishes acknowledged within {@code window} before {@code untilNanos}. */
    long publishedWithin(Duration window, long untilNanos) {
        long from = untilNanos - window.toNanos();
        return confirmed.values().stream().filter(at -> at >= from && at <= untilNanos).count();
    }

    /** Stops publishing; consumers go on until the queue has nothing ready for them, at most {@code drain}. */
    void stopPublishing(Duration drain) {
        publishing = false;
        join(publishers);
        long deadline = System.nanoTime() + drain.toNanos();
        while (!consumers.isEmpty() && System.nanoTime() < deadline) {
            try {
                if (store.stats().ready() == 0) {
                    break;
                }
            } catch (QueueUnavailableException notYet) {
                // consumers are still recovering
            }
            pause(50);
        }
    }

    /**
     * Acknowledged publishes whose task is gone: never received by a consumer and not in the store now.
     * Call after {@link #close()}.
     */
    List<String> lost() {
        List<String> lost = new ArrayList<>();
        for (String id : confirmed.keySet()) {
            if (!consumed.contains(id) && store.get(TaskId.of(id)).isEmpty()) {
                lost.add(id);
            }
        }
        return lost;
    }

    @Override
    public void close() {
        publishing = false;
        consuming = false;
        join(publishers);
        join(consumers);
    }

    private static void join(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
