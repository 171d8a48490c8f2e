package io.ordo.spring;

import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.Map;

/**
 * The workers' readiness, as {@code /readyz} of ordo-ops-http answers it: UP while every worker runs
 * and its backend answers, DOWN otherwise (also before the workers have started and after they
 * stopped); each worker's state, backend and held tasks are the details. Every call asks anew.
 */
public final class OrdoHealthIndicator implements HealthIndicator {
    private final OrdoWorkers workers;

    OrdoHealthIndicator(OrdoWorkers workers) {
        this.workers = workers;
    }

    @Override
    public Health health() {
        if (!workers.isRunning()) {
            return Health.down().withDetail("workers", "not running").build();
        }
        Map<Worker<?>, WorkerHealth> health = workers.health();
        boolean ready = health.values().stream().allMatch(WorkerHealth::ready);
        Health.Builder builder = ready ? Health.up() : Health.down();
        health.forEach((worker, state) -> builder.withDetail(worker.queue().value() + " " + worker.consumer().value(),
                state.describe()));
        return builder.build();
    }
}
