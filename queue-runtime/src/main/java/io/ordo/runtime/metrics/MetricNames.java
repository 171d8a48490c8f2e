package io.ordo.runtime.metrics;

import io.micrometer.core.instrument.Tags;
import io.ordo.domain.GroupName;
import io.ordo.ports.QueueBound;

/**
 * The meters Ordo registers, by Micrometer name; Prometheus shows them with dots as underscores
 * and the unit and {@code _total} appended (docs/metrics.md lists the exposed names). These names
 * are an interface: dashboards and alerts depend on them, so they do not change.
 */
public final class MetricNames {
    /** Tag on every meter: the queue's name. */
    public static final String QUEUE_TAG = "queue";
    /**
     * Tag on every meter: the consumer group's name, empty for the queue's own view (docs/groups.md). Always
     * there, so a process that serves a queue's own view and a group registers every meter with one set of
     * tags, as Prometheus requires.
     */
    public static final String GROUP_TAG = "group";

    /** The tags every meter of a store's queue (or group) carries. */
    public static Tags of(QueueBound store) {
        return Tags.of(QUEUE_TAG, store.queue().value(),
                GROUP_TAG, store.group().map(GroupName::value).orElse(""));
    }

    /** Counter: tasks handled successfully and acked. */
    public static final String PROCESSED = "ordo.tasks.processed";
    /** Counter: handler attempts that did not succeed, tagged {@code outcome} (error, retry_after, fail). */
    public static final String FAILED = "ordo.tasks.failed";
    /** Counter: tasks returned to the queue to be tried again after a delay. */
    public static final String RETRIED = "ordo.tasks.retried";
    /** Counter: tasks this worker sent to the dead letters. */
    public static final String DEAD_LETTERED = "ordo.tasks.dead.lettered";
    /** Counter: tasks returned unprocessed because their partition is rate-limited. */
    public static final String RATE_LIMITED = "ordo.tasks.rate.limited";
    /**
     * Counter: tasks returned unprocessed, tagged {@code reason} (shutdown, batch, lease_lost, abandoned, timed_out,
     * passed_on).
     */
    public static final String RETURNED = "ordo.tasks.returned";
    /**
     * Counter: tasks whose cancellation this worker heard of while it held them, tagged {@code outcome}
     * (not_started, stopped, interrupted, abandoned: how their run ended; docs/task-control.md).
     */
    public static final String CANCELLED = "ordo.tasks.cancelled";
    /** Counter: lease extensions handlers asked for, tagged {@code outcome} (extended, cancel_requested, lease_lost). */
    public static final String LEASE_EXTENSIONS = "ordo.lease.extensions";
    /**
     * Distribution summary: the percentages handlers reported (docs/task-control.md): its count is the reports
     * made, its mean and max how far the reporting tasks had come (a task's own progress is in its lease).
     */
    public static final String PROGRESS_REPORTED = "ordo.task.progress.reported";
    /** Timer: how long handlers took, tagged {@code result} (success, failure). */
    public static final String PROCESSING_TIME = "ordo.task.processing";
    /** Timer: how long fetches took, tagged {@code result} (tasks, empty, error); an empty fetch waited for work. */
    public static final String FETCH_LATENCY = "ordo.fetch.latency";
    /** Counter: schedule firings of this worker's reaper, each handling one schedule's due slots. */
    public static final String SCHEDULES_FIRED = "ordo.schedules.fired";
    /** Counter: schedule firings that let due slots pass unpublished, as the schedule's misfire policy says. */
    public static final String SCHEDULES_MISSED = "ordo.schedules.missed";
    /** Gauge: tasks this worker holds, running or waiting for a thread. */
    public static final String WORKER_HELD = "ordo.worker.held.tasks";
    /** Gauge: 1 while the worker runs and its backend answers, else 0. */
    public static final String WORKER_READY = "ordo.worker.ready";

    /** Gauge: tasks due and waiting. */
    public static final String QUEUE_READY = "ordo.queue.ready.tasks";
    /** Gauge: tasks waiting that are not due yet. */
    public static final String QUEUE_DELAYED = "ordo.queue.delayed.tasks";
    /** Gauge: tasks held by consumers. */
    public static final String QUEUE_IN_FLIGHT = "ordo.queue.in.flight.tasks";
    /** Gauge: dead letters. */
    public static final String QUEUE_DEAD = "ordo.queue.dead.tasks";
    /** Gauge, seconds: how long the longest-waiting due task has been due (lag). */
    public static final String QUEUE_OLDEST_DUE_AGE = "ordo.queue.oldest.due.age";
    /** Gauge: partitions with tasks waiting that their concurrency cap holds back. */
    public static final String QUEUE_CAPPED_PARTITIONS = "ordo.queue.capped.partitions";
    /** Gauge: partitions with tasks waiting that the partition rate limit holds back (out of tokens). */
    public static final String QUEUE_THROTTLED_PARTITIONS = "ordo.queue.throttled.partitions";
    /** Gauge: completed tasks the queue keeps with their results ({@code resultRetention}); 0 when it keeps none. */
    public static final String QUEUE_COMPLETED = "ordo.queue.completed.tasks";
    /** Gauge: consumers whose heartbeat is fresh. */
    public static final String QUEUE_LIVE_CONSUMERS = "ordo.queue.live.consumers";
    /**
     * Counter: dead letters the queue's caps deleted since the queue began ({@code deadLetterMaxCount},
     * {@code deadLetterMaxAge}), the queue's own total as its stats read it (every worker reports the same).
     */
    public static final String QUEUE_DEAD_LETTERS_DROPPED = "ordo.queue.dead.letters.dropped";

    private MetricNames() {
    }
}
