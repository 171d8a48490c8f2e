package io.ordo.runtime.worker;

import io.ordo.domain.Partition;
import io.ordo.domain.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The shutdown's grace period is measured on the worker's ticker, so a virtual one ends it when moved. */
class GracePeriodOnATickerTest {
    private final WorkerHarness harness = new WorkerHarness();
    private final AtomicLong nanos = new AtomicLong();

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void an_hour_long_grace_period_ends_when_the_ticker_moves_an_hour_and_not_before() throws Exception {
        harness.options.gracePeriod(Duration.ofHours(1));
        harness.publish(Partition.regular("reports"), "slow");
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch stopping = new CountDownLatch(1);
        Worker<String> worker = Worker.builder(harness.store, String.class, (String payload, TaskContext context) -> {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return Outcome.success();
                })
                .options(harness.options.build()).clock(harness.clock).ticker(nanos::get).listener(harness.events)
                .listener(new WorkerListener() {
                    @Override
                    public void stopping() {
                        stopping.countDown();
                    }
                })
                .build();
        harness.worker = worker;
        worker.start();
        Eventually.until("slow runs", () -> harness.events.started.contains("slow"));

        CompletableFuture<Void> stop = CompletableFuture.runAsync(worker::stop);
        assertThat(stopping.await(10, TimeUnit.SECONDS)).as("the stop has begun").isTrue();
        Eventually.holdStill(Duration.ofMillis(300));
        assertThat(stop).as("the grace period has not passed on the ticker").isNotDone();
        assertThat(interrupted).isFalse();

        nanos.addAndGet(Duration.ofHours(1).toNanos());

        stop.get(10, TimeUnit.SECONDS);
        assertThat(harness.events.settlementsOf("slow")).containsExactly(Settlement.RELEASED);
        assertThat(harness.get("slow").state()).isEqualTo(TaskState.PENDING);
        assertThat(harness.get("slow").task().attempts()).isZero();
        Eventually.until("the handler saw the interrupt", interrupted::get);
    }
}
