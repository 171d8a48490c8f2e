package io.ordo.cli.work;

import com.fasterxml.jackson.databind.JsonNode;
import io.ordo.ports.ExtendOutcome;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The handler of {@code ordo work}: takes any JSON payload, pretends to work on it for a while and
 * fails at a given rate, so anyone can watch retries, dead letters and shutdown without writing code.
 * For fault drills it can also crash the whole process or hang on payloads that contain a given
 * text, and write each start and success to a {@link TaskJournal}.
 */
public final class DemoHandler implements TaskHandler<JsonNode> {
    /** The exit status of a process crashed on purpose by {@code --crash-on}. */
    public static final int CRASH_STATUS = 97;

    private final Duration workTime;
    private final double failureRate;
    private final RandomGenerator random;
    private final Drills drills;
    /** While it works, the handler extends its task's lease to this from now, every third of it. */
    private final Optional<Duration> extendLease;

    public DemoHandler(Duration workTime, double failureRate, RandomGenerator random) {
        this(workTime, failureRate, random, Drills.NONE, Optional.empty());
    }

    public DemoHandler(Duration workTime, double failureRate, RandomGenerator random, Drills drills,
                       Optional<Duration> extendLease) {
        this.workTime = workTime;
        this.failureRate = failureRate;
        this.random = random;
        this.drills = drills;
        this.extendLease = extendLease;
    }

    /**
     * What a fault drill asks of the handler: halt the JVM on payloads containing {@code crashOn},
     * never return on payloads containing {@code hangOn}, record starts and successes in {@code journal}.
     */
    public record Drills(Optional<String> crashOn, Optional<String> hangOn, Optional<TaskJournal> journal) {
        public static final Drills NONE = new Drills(Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Override
    public Outcome handle(JsonNode payload, TaskContext context) throws InterruptedException {
        drills.journal.ifPresent(journal -> journal.begin(context));
        String text = payload.toString();
        if (drills.crashOn.isPresent() && text.contains(drills.crashOn.get())) {
            drills.journal.ifPresent(journal -> journal.crash(context));
            Runtime.getRuntime().halt(CRASH_STATUS); // no shutdown hooks, no last acks: like a segfault or an OOM kill
        }
        if (drills.hangOn.isPresent() && text.contains(drills.hangOn.get())) {
            hangForever();
        }
        if (!work(context)) {
            return Outcome.success(); // its cancellation was asked: the worker gives it back, the store deletes it
        }
        if (failureRate > 0 && draw() < failureRate) {
            drills.journal.ifPresent(journal -> journal.fail(context));
            throw new SimulatedFailure("simulated failure (--failure-rate " + failureRate + ")");
        }
        drills.journal.ifPresent(journal -> journal.done(context));
        return Outcome.success();
    }

    /**
     * Works for the work time, extending the lease as it goes when asked to; false when it stopped because the
     * task's cancellation was asked. An interrupt (shutdown after the grace period, a cancellation past its
     * grace) ends the work early.
     */
    private boolean work(TaskContext context) throws InterruptedException {
        if (extendLease.isEmpty()) {
            if (!workTime.isZero()) {
                Thread.sleep(workTime.toMillis());
            }
            return true;
        }
        long slice = Math.max(1, extendLease.get().toMillis() / 3);
        long end = System.nanoTime() + workTime.toNanos();
        for (long left = workTime.toMillis(); left > 0; left = (end - System.nanoTime()) / 1_000_000) {
            if (context.isCancelled() || context.extendLease(extendLease.get()) == ExtendOutcome.CANCEL_REQUESTED) {
                return false;
            }
            Thread.sleep(Math.min(slice, left));
        }
        return true;
    }

    /** A handler stuck for good: deaf to interrupts, as a handler blocked in a call without a timeout. */
    private static void hangForever() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException ignored) {
                // a hung handler does not notice
            }
        }
    }

    private double draw() {
        synchronized (random) {
            return random.nextDouble();
        }
    }

    /** What the demo handler throws: its class and message are what a dead letter then carries. */
    public static final class SimulatedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SimulatedFailure(String message) {
            super(message);
        }
    }
}
