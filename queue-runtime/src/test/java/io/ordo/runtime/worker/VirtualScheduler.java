package io.ordo.runtime.worker;

import io.ordo.ports.VirtualClock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * A scheduler on a {@link VirtualClock}: jobs run only when the test moves time with
 * {@link #advance}, on the test's thread, each at its exact due time.
 */
final class VirtualScheduler implements Scheduler {
    private final VirtualClock clock;
    private final PriorityQueue<Job> jobs = new PriorityQueue<>();
    private long lastSequence;

    VirtualScheduler(VirtualClock clock) {
        this.clock = clock;
    }

    record Job(long dueAt, long sequence, Runnable body) implements Comparable<Job> {
        @Override
        public int compareTo(Job other) {
            return dueAt != other.dueAt ? Long.compare(dueAt, other.dueAt) : Long.compare(sequence, other.sequence);
        }
    }

    @Override
    public synchronized Cancellable schedule(Runnable body, Duration delay) {
        Job job = new Job(clock.millis() + delay.toMillis(), ++lastSequence, body);
        jobs.add(job);
        notifyAll();
        return () -> {
            synchronized (this) {
                jobs.remove(job);
            }
        };
    }

    /** Moves time forward, running every job that falls due at its due time, in order. */
    void advance(Duration duration) {
        long target = clock.millis() + duration.toMillis();
        while (true) {
            Job next;
            synchronized (this) {
                next = jobs.peek();
                if (next == null || next.dueAt > target) {
                    break;
                }
                jobs.poll();
            }
            if (next.dueAt > clock.millis()) {
                clock.advanceMillis(next.dueAt - clock.millis());
            }
            next.body.run();
        }
        if (target > clock.millis()) {
            clock.advanceMillis(target - clock.millis());
        }
    }

    /** Runs what is due now without moving time. */
    void runDue() {
        advance(Duration.ZERO);
    }

    /** Waits (real time, bounded) until a job due at exactly {@code dueAt} is pending. */
    synchronized void awaitJobDueAt(long dueAt) throws InterruptedException {
        awaitJob(job -> job.dueAt == dueAt, "a job due at " + dueAt);
    }

    /** Waits (real time, bounded) until a pending job satisfies the predicate. */
    synchronized void awaitJob(Predicate<Job> wanted, String description) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Eventually.TIMEOUT.toMillis();
        while (jobs.stream().noneMatch(wanted)) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new AssertionError("no " + description + " was scheduled; pending: " + pendingDueTimes());
            }
            wait(left);
        }
    }

    synchronized List<Long> pendingDueTimes() {
        List<Long> times = new ArrayList<>();
        jobs.stream().sorted().forEach(job -> times.add(job.dueAt));
        return times;
    }

    @Override
    public void close() {
    }
}
