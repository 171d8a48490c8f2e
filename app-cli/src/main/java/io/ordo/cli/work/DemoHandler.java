package io.ordo.cli.work;

import com.fasterxml.jackson.databind.JsonNode;
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

    public DemoHandler(Duration workTime, double failureRate, RandomGenerator random) {
        this(workTime, failureRate, random, Drills.NONE);
    }

    public DemoHandler(Duration workTime, double failureRate, RandomGenerator random, Drills drills) {
        this.workTime = workTime;
        this.failureRate = failureRate;
        this.random = random;
        this.drills = drills;
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
        if (!workTime.isZero()) {
            Thread.sleep(workTime.toMillis()); // an interrupt (shutdown after the grace period) ends the work early
        }
        if (failureRate > 0 && draw() < failureRate) {
            drills.journal.ifPresent(journal -> journal.fail(context));
            throw new SimulatedFailure("simulated failure (--failure-rate " + failureRate + ")");
        }
        drills.journal.ifPresent(journal -> journal.done(context));
        return Outcome.success();
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
