package io.ordo.runtime.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.ordo.domain.Lease;
import io.ordo.domain.Progress;
import io.ordo.domain.QueueName;
import io.ordo.ports.ExtendOutcome;
import io.ordo.ports.QueueBound;
import io.ordo.ports.ScheduleFiring;
import io.ordo.runtime.worker.CancelledRun;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Settlement;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerListener;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** A worker's counters and timers in Micrometer, under the names of {@link MetricNames}. */
public final class WorkerMetrics implements WorkerListener {
    /** Bucket bounds of the timers: from a fast cache write to a slow report, so histogram_quantile works. */
    private static final Duration[] BUCKETS = {
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(60)};

    private final MeterRegistry registry;
    private final Tags tags;
    private final Counter processed;
    private final Counter retried;
    private final Counter deadLettered;
    private final Counter rateLimited;
    private final Counter schedulesFired;
    private final Counter schedulesMissed;
    private final Map<Settlement, Counter> returned = new EnumMap<>(Settlement.class);
    private final Map<CancelledRun, Counter> cancelled = new EnumMap<>(CancelledRun.class);
    private final Map<ExtendOutcome, Counter> leaseExtensions = new EnumMap<>(ExtendOutcome.class);
    private final DistributionSummary progressReported;
    private final Counter failedWithError;
    private final Counter failedRetryAfter;
    private final Counter failedExplicitly;
    private final Timer succeeded;
    private final Timer failed;
    private final Timer fetchedTasks;
    private final Timer fetchedNothing;
    private final Timer fetchFailed;

    public WorkerMetrics(MeterRegistry registry, QueueName queue) {
        this(registry, Tags.of(MetricNames.QUEUE_TAG, queue.value(), MetricNames.GROUP_TAG, ""));
    }

    /** The metrics of a worker of the store's queue, or of its consumer group. */
    public WorkerMetrics(MeterRegistry registry, QueueBound store) {
        this(registry, MetricNames.of(store));
    }

    private WorkerMetrics(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
        processed = counter(MetricNames.PROCESSED, "Tasks handled successfully and acked", Tags.empty());
        retried = counter(MetricNames.RETRIED, "Tasks returned to be tried again after a delay", Tags.empty());
        deadLettered = counter(MetricNames.DEAD_LETTERED, "Tasks sent to the dead letters", Tags.empty());
        rateLimited = counter(MetricNames.RATE_LIMITED, "Tasks returned because their partition is rate-limited",
                Tags.empty());
        schedulesFired = counter(MetricNames.SCHEDULES_FIRED, "Schedule firings, each handling a schedule's due slots",
                Tags.empty());
        schedulesMissed = counter(MetricNames.SCHEDULES_MISSED,
                "Schedule firings that let due slots pass unpublished (misfire policy)", Tags.empty());
        returned.put(Settlement.RELEASED, returnedCounter("shutdown"));
        returned.put(Settlement.RETURNED_WITH_BATCH, returnedCounter("batch"));
        returned.put(Settlement.LEASE_LOST, returnedCounter("lease_lost"));
        returned.put(Settlement.ABANDONED, returnedCounter("abandoned"));
        returned.put(Settlement.TIMED_OUT, returnedCounter("timed_out"));
        returned.put(Settlement.PASSED_ON, returnedCounter("passed_on"));
        for (CancelledRun run : CancelledRun.values()) {
            cancelled.put(run, counter(MetricNames.CANCELLED,
                    "Tasks whose cancellation the worker heard of while holding them, by how their run ended",
                    Tags.of("outcome", tagValue(run))));
        }
        for (ExtendOutcome outcome : ExtendOutcome.values()) {
            leaseExtensions.put(outcome, counter(MetricNames.LEASE_EXTENSIONS, "Lease extensions handlers asked for",
                    Tags.of("outcome", tagValue(outcome))));
        }
        progressReported = DistributionSummary.builder(MetricNames.PROGRESS_REPORTED).tags(tags).baseUnit("percent")
                .description("The progress handlers reported, in percent").register(registry);
        failedWithError = failedCounter("error");
        failedRetryAfter = failedCounter("retry_after");
        failedExplicitly = failedCounter("fail");
        succeeded = timer(MetricNames.PROCESSING_TIME, "How long handlers took", "success");
        failed = timer(MetricNames.PROCESSING_TIME, "How long handlers took", "failure");
        fetchedTasks = timer(MetricNames.FETCH_LATENCY, "How long fetches took", "tasks");
        fetchedNothing = timer(MetricNames.FETCH_LATENCY, "How long fetches took", "empty");
        fetchFailed = timer(MetricNames.FETCH_LATENCY, "How long fetches took", "error");
    }

    /** Adds the gauges that read the worker itself: tasks held and readiness. */
    public void bindWorkerGauges(Worker<?> worker) {
        Gauge.builder(MetricNames.WORKER_HELD, worker, Worker::heldTasks).tags(tags)
                .description("Tasks this worker holds, running or waiting for a thread").register(registry);
        Gauge.builder(MetricNames.WORKER_READY, worker, w -> w.health().ready() ? 1 : 0).tags(tags)
                .description("1 while the worker runs and its backend answers").register(registry);
    }

    @Override
    public void handlerFinished(Lease lease, Outcome outcome, Throwable error, Duration took) {
        boolean success = outcome.isSuccess();
        (success ? succeeded : failed).record(took);
        if (error != null && outcome instanceof Outcome.RetryAfter) {
            failedWithError.increment();
        } else if (outcome instanceof Outcome.RetryAfter) {
            failedRetryAfter.increment();
        } else if (outcome instanceof Outcome.Fail) {
            failedExplicitly.increment();
        }
    }

    @Override
    public void taskSettled(Lease lease, Settlement settlement) {
        switch (settlement) {
            case PROCESSED -> processed.increment();
            case RETRIED -> retried.increment();
            case DEAD_LETTERED -> deadLettered.increment();
            case RATE_LIMITED -> rateLimited.increment();
            case CANCELLED -> { } // deleted by the store, not returned: counted by taskCancelled, by how it ended
            default -> returned.get(settlement).increment();
        }
    }

    @Override
    public void taskCancelled(Lease lease, CancelledRun run) {
        cancelled.get(run).increment();
    }

    @Override
    public void leaseExtended(Lease lease, ExtendOutcome outcome) {
        leaseExtensions.get(outcome).increment();
    }

    @Override
    public void progressReported(Lease lease, Progress progress) {
        progressReported.record(progress.percent());
    }

    @Override
    public void schedulesFired(ScheduleFiring firing) {
        schedulesFired.increment(firing.schedulesFired());
        schedulesMissed.increment(firing.schedulesMissed());
    }

    @Override
    public void fetched(int count, Duration took) {
        (count > 0 ? fetchedTasks : fetchedNothing).record(took);
    }

    @Override
    public void fetchFailed(RuntimeException error, Duration retryIn) {
        fetchFailed.record(Duration.ZERO);
    }

    private Counter counter(String name, String description, Tags extra) {
        return Counter.builder(name).tags(tags).tags(extra).description(description).register(registry);
    }

    /** An enum constant as Prometheus label values are written here: {@code NOT_STARTED} is {@code not_started}. */
    private static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private Counter returnedCounter(String reason) {
        return counter(MetricNames.RETURNED, "Tasks returned to the queue unprocessed", Tags.of("reason", reason));
    }

    private Counter failedCounter(String outcome) {
        return counter(MetricNames.FAILED, "Handler attempts that did not succeed", Tags.of("outcome", outcome));
    }

    private Timer timer(String name, String description, String result) {
        return Timer.builder(name).tags(tags).tag("result", result).description(description)
                .serviceLevelObjectives(BUCKETS).register(registry);
    }
}
