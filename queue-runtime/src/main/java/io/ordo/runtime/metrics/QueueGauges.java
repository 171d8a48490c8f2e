package io.ordo.runtime.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskInspection;
import io.ordo.runtime.worker.Scheduler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerListener;

import java.time.Duration;
import java.util.function.ToDoubleFunction;

/**
 * A queue's counts as gauges, and its total of dead letters the caps deleted as a counter. One stats call per
 * refresh feeds them all, so a scrape costs the backend nothing; while the backend does not answer the gauges
 * read NaN rather than a stale number, and the counter keeps the last total read (a counter that went NaN
 * would break every rate over it; NaN only before the first read). As a listener it refreshes while its
 * worker runs.
 */
public final class QueueGauges implements WorkerListener {
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(5);

    private final TaskInspection store;
    private final Scheduler scheduler;
    private final Duration interval;
    private volatile QueueStats latest;
    /** The queue's dead letters dropped by its caps, as last read; NaN before any read. */
    private volatile double deadLettersDropped = Double.NaN;
    private Scheduler.Cancellable next;
    private boolean running;

    public QueueGauges(MeterRegistry registry, TaskInspection store, Scheduler scheduler, Duration interval) {
        this.store = store;
        this.scheduler = scheduler;
        this.interval = interval;
        Tags tags = MetricNames.of(store);
        gauge(registry, tags, MetricNames.QUEUE_READY, "Tasks due and waiting", QueueStats::ready, null);
        gauge(registry, tags, MetricNames.QUEUE_DELAYED, "Tasks waiting that are not due yet", QueueStats::delayed, null);
        gauge(registry, tags, MetricNames.QUEUE_IN_FLIGHT, "Tasks held by consumers", QueueStats::inFlight, null);
        gauge(registry, tags, MetricNames.QUEUE_DEAD, "Dead letters", QueueStats::dead, null);
        gauge(registry, tags, MetricNames.QUEUE_COMPLETED, "Completed tasks kept with their results",
                QueueStats::completed, null);
        gauge(registry, tags, MetricNames.QUEUE_OLDEST_DUE_AGE, "How long the longest-waiting due task has been due",
                stats -> stats.oldestDueAgeMillis() / 1000.0, "seconds");
        gauge(registry, tags, MetricNames.QUEUE_CAPPED_PARTITIONS, "Partitions with tasks waiting held back by their cap",
                QueueStats::cappedPartitions, null);
        gauge(registry, tags, MetricNames.QUEUE_THROTTLED_PARTITIONS,
                "Partitions with tasks waiting held back by the partition rate limit", QueueStats::throttledPartitions, null);
        gauge(registry, tags, MetricNames.QUEUE_LIVE_CONSUMERS, "Consumers whose heartbeat is fresh",
                QueueStats::liveConsumers, null);
        FunctionCounter.builder(MetricNames.QUEUE_DEAD_LETTERS_DROPPED, this, gauges -> gauges.deadLettersDropped)
                .tags(tags).description("Dead letters the queue's caps deleted (deadLetterMaxCount, deadLetterMaxAge)")
                .register(registry);
    }

    /** Reads the queue's stats now; NaN gauges if the backend does not answer. */
    public void refresh() {
        try {
            latest = store.stats();
            deadLettersDropped = latest.deadLettersDroppedTotal();
        } catch (RuntimeException e) {
            latest = null;
        }
    }

    @Override
    public synchronized void started(Worker<?> worker) {
        running = true;
        next = scheduler.schedule(this::refreshAndReschedule, Duration.ZERO);
    }

    @Override
    public synchronized void stopped() {
        running = false;
        if (next != null) {
            next.cancel();
        }
    }

    private void refreshAndReschedule() {
        refresh();
        synchronized (this) {
            if (running) {
                next = scheduler.schedule(this::refreshAndReschedule, interval);
            }
        }
    }

    private void gauge(MeterRegistry registry, Tags tags, String name, String description,
                       ToDoubleFunction<QueueStats> value, String unit) {
        Gauge.builder(name, this, gauges -> {
                    QueueStats stats = gauges.latest;
                    return stats == null ? Double.NaN : value.applyAsDouble(stats);
                })
                .tags(tags).description(description).baseUnit(unit).register(registry);
    }
}
