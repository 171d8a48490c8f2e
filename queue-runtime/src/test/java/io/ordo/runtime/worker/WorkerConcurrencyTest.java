package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerConcurrencyTest {
    private final WorkerHarness harness = new WorkerHarness();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void regular_tasks_run_concurrently_up_to_the_concurrency() {
        harness.options.concurrency(4).prefetch(4);
        harness.publish(Partition.regular("emails"), "m1", "m2", "m3", "m4");
        CyclicBarrier allFourAtOnce = new CyclicBarrier(4);

        harness.start((payload, context) -> {
            allFourAtOnce.await(5, TimeUnit.SECONDS); // breaks unless four handlers run at the same time
            return Outcome.success();
        });

        Eventually.until("all four are processed", () -> harness.events.count(Settlement.PROCESSED) == 4);
    }

    @Test
    void the_worker_never_holds_more_than_the_prefetch() {
        harness.options.concurrency(1).prefetch(3);
        for (int i = 0; i < 20; i++) {
            harness.publish(Partition.regular("p" + (i % 4)), "m" + i);
        }
        AtomicLong mostInFlight = new AtomicLong();

        harness.start((payload, context) -> {
            mostInFlight.accumulateAndGet(harness.store.stats().inFlight(), Math::max);
            return Outcome.success();
        });

        Eventually.until("all are processed", () -> harness.events.count(Settlement.PROCESSED) == 20);
        assertThat(mostInFlight.get()).isEqualTo(3);
    }
}
