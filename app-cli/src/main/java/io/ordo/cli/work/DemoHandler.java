package io.ordo.cli.work;

import com.fasterxml.jackson.databind.JsonNode;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The handler of {@code ordo work}: takes any JSON payload, pretends to work on it for a while and
 * fails at a given rate, so anyone can watch retries, dead letters and shutdown without writing code.
 */
public final class DemoHandler implements TaskHandler<JsonNode> {
    private final Duration workTime;
    private final double failureRate;
    private final RandomGenerator random;

    public DemoHandler(Duration workTime, double failureRate, RandomGenerator random) {
        this.workTime = workTime;
        this.failureRate = failureRate;
        this.random = random;
    }

    @Override
    public Outcome handle(JsonNode payload, TaskContext context) throws InterruptedException {
        if (!workTime.isZero()) {
            Thread.sleep(workTime.toMillis()); // an interrupt (shutdown after the grace period) ends the work early
        }
        if (failureRate > 0 && draw() < failureRate) {
            throw new SimulatedFailure("simulated failure (--failure-rate " + failureRate + ")");
        }
        return Outcome.success();
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
