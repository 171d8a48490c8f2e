package io.ordo.runtime.worker;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.domain.TaskState;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.LeaseStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a handler does with its task through {@link TaskContext} (docs/task-control.md), on the in-memory store
 * and virtual time: progress rides on the next heartbeat, a lease extension keeps a long task past the
 * queue's processing timeout.
 */
class TaskContextControlsTest {
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);

    private final WorkerHarness harness = new WorkerHarness();
    private final VirtualScheduler scheduler = harness.onVirtualTime();
    private final CountDownLatch finish = new CountDownLatch(1);

    TaskContextControlsTest() {
        harness.options.heartbeatInterval(HEARTBEAT);
    }

    @AfterEach
    void stop() {
        finish.countDown();
        harness.close();
    }

    @Test
    void progress_reported_by_a_handler_reaches_the_store_with_the_next_heartbeat_the_latest_report_only() {
        harness.publish(Partition.regular("reports"), "report");
        CountDownLatch report = new CountDownLatch(1);
        CountDownLatch firstReported = new CountDownLatch(1);
        CountDownLatch reportMore = new CountDownLatch(1);
        CountDownLatch moreReported = new CountDownLatch(1);
        harness.start((payload, context) -> {
            report.await();
            context.reportProgress(40, "halfway");
            firstReported.countDown();
            reportMore.await();
            context.reportProgress(60, "three fifths");
            context.reportProgress(Progress.of(80));
            moreReported.countDown();
            finish.await();
            return Outcome.success();
        });
        scheduler.runDue(); // the first heartbeat, before the report
        report.countDown();
        await(firstReported);
        assertThat(lease("report").progress()).as("no call of its own: it waits for the heartbeat").isEmpty();

        scheduler.advance(HEARTBEAT);
        assertThat(lease("report").progress()).contains(new Progress(40, "halfway"));
        assertThat(lease("report").progressAt()).contains(Instant.ofEpochMilli(harness.clock.millis()));

        reportMore.countDown();
        await(moreReported);
        scheduler.advance(HEARTBEAT);
        assertThat(lease("report").progress()).contains(Progress.of(80));

        finish.countDown();
        Eventually.until("report is processed", () -> harness.events.count(Settlement.PROCESSED) == 1);
    }

    @Test
    void a_bad_progress_report_is_refused_naming_its_field() {
        harness.publish(Partition.regular("reports"), "report");
        AtomicReference<Throwable> refused = new AtomicReference<>();
        harness.start((payload, context) -> {
            try {
                context.reportProgress(101, "too far");
            } catch (InvalidInputException e) {
                refused.set(e);
            }
            return Outcome.success();
        });

        Eventually.until("report is processed", () -> harness.events.count(Settlement.PROCESSED) == 1);
        assertThat(refused.get()).isInstanceOf(InvalidInputException.class).hasMessageStartingWith("progress.percent: ");
    }

    @Test
    void a_handler_that_extends_its_lease_keeps_its_task_past_the_queues_processing_timeout() {
        harness.settings(QueueSettings.builder().processingTimeout(Duration.ofSeconds(1)).build());
        harness.publish(Partition.regular("reports"), "extends");
        harness.publish(Partition.regular("mail"), "does-not");
        AtomicReference<ExtendOutcome> extension = new AtomicReference<>();
        AtomicReference<Optional<Instant>> deadlineSeen = new AtomicReference<>();
        CountDownLatch extended = new CountDownLatch(1);
        AtomicReference<Throwable> refused = new AtomicReference<>();
        harness.start((payload, context) -> {
            if (payload.equals("extends")) {
                try {
                    context.extendLease(Duration.ofMillis(500));
                } catch (InvalidInputException e) {
                    refused.set(e);
                }
                extension.set(context.extendLease(Duration.ofSeconds(10)));
                deadlineSeen.set(context.deadline());
                extended.countDown();
            }
            finish.await();
            return Outcome.success();
        });
        scheduler.runDue();
        await(extended);
        Eventually.until("both run", () -> harness.events.started.size() == 2);
        Instant tenSecondsOn = Instant.ofEpochMilli(harness.clock.millis() + 10_000);
        assertThat(refused.get()).isInstanceOf(InvalidInputException.class).hasMessageStartingWith("extension: ");
        assertThat(extension.get()).isEqualTo(ExtendOutcome.EXTENDED);
        assertThat(deadlineSeen.get()).contains(tenSecondsOn);
        assertThat(lease("extends").deadline()).contains(tenSecondsOn);

        scheduler.advance(Duration.ofSeconds(5)); // five times the queue's timeout
        Eventually.until("does-not is given up", () -> harness.events.settlementsOf("does-not").contains(Settlement.TIMED_OUT));
        assertThat(harness.store.reclaim().timedOut()).as("does-not was due already; extends is not").isEqualTo(1);
        assertThat(harness.get("extends").state()).isEqualTo(TaskState.IN_FLIGHT);
        assertThat(harness.events.settlementsOf("extends")).isEmpty();

        finish.countDown();
        Eventually.until("extends is processed", () -> harness.events.settlementsOf("extends").contains(Settlement.PROCESSED));
        assertThat(harness.events.started.stream().filter("extends"::equals)).as("run once").hasSize(1);
    }

    @Test
    void an_extension_answered_cancel_requested_tells_the_handler_at_once() {
        harness.publish(Partition.regular("reports"), "long");
        CountDownLatch cancelAsked = new CountDownLatch(1);
        AtomicReference<ExtendOutcome> extension = new AtomicReference<>();
        AtomicBoolean cancelledAfter = new AtomicBoolean();
        harness.start((payload, context) -> {
            cancelAsked.await();
            extension.set(context.extendLease(Duration.ofMinutes(1)));
            cancelledAfter.set(context.isCancelled());
            return Outcome.success();
        });
        Eventually.until("long runs", () -> harness.events.started.contains("long"));

        harness.store.cancel(List.of(TaskId.of("long"))); // no heartbeat runs: the extension's answer tells
        cancelAsked.countDown();

        Eventually.until("long is settled", () -> !harness.events.settlementsOf("long").isEmpty());
        assertThat(extension.get()).isEqualTo(ExtendOutcome.CANCEL_REQUESTED);
        assertThat(cancelledAfter).isTrue();
        assertThat(harness.events.settlementsOf("long")).containsExactly(Settlement.CANCELLED);
        assertThat(harness.isGone("long")).isTrue();
    }

    private LeaseStatus lease(String id) {
        return harness.get(id).lease().orElseThrow(() -> new AssertionError(id + " is not in flight"));
    }

    private static void await(CountDownLatch latch) {
        Eventually.until("the handler gets there", () -> latch.getCount() == 0);
    }
}
