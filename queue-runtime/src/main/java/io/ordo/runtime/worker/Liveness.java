package io.ordo.runtime.worker;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.TaskId;
import io.ordo.domain.Text;
import io.ordo.ports.Clock;
import io.ordo.ports.ReclaimReport;
import io.ordo.ports.StoreClosedException;
import io.ordo.ports.QueueMaintenance;
import io.ordo.ports.ScheduleFiring;
import io.ordo.ports.TaskConsuming;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * Keeps the worker's consumer names alive and returns what dead consumers held: heartbeats for each
 * name still in use (its {@linkplain Incarnation incarnations}), the reaper (reclaim, the trim of dead letters
 * past the queue's caps, the schedules), and the queue's settings
 * the heartbeats bring back (its heartbeat TTL and processing timeout, and which held tasks' cancellation was
 * asked); they carry the handlers' progress reports. A name whose fetch lost its
 * answer is retired; fetching goes on under a new one (docs/decisions/worker-backend-outage.md).
 */
final class Liveness {
    /** The shortest TTL a heartbeat can set: at shutdown the consumer stops counting as live at once. */
    private static final Duration EXPIRE_AT_ONCE = Duration.ofMillis(1);

    private final TaskConsuming store;
    private final QueueMaintenance maintenance;
    private final QueueName queue;
    private final Logger log;
    private final WorkerOptions options;
    private final Clock clock;
    private final Scheduler scheduler;
    private final BackendStatus backend;
    private final StoreClosedAlarm storeClosed;
    private final WorkerListener listeners;
    private final HeldTasks held;
    private final BiConsumer<ConsumerId, Set<TaskId>> cancelRequested;
    private final List<Incarnation> incarnations = new CopyOnWriteArrayList<>();
    private final AtomicInteger incarnationCount = new AtomicInteger();
    private volatile Incarnation current;
    private volatile Duration heartbeatTtl = QueueSettings.DEFAULT_HEARTBEAT_TTL;
    private volatile Duration processingTimeout = QueueSettings.DEFAULT_PROCESSING_TIMEOUT;
    private PeriodicJob heartbeats;
    private PeriodicJob reaper;

    /**
     * @param options         the consumer name and the heartbeat and reaper intervals, if set
     * @param held            what the heartbeats carry their handlers' progress reports for
     * @param cancelRequested told of the tasks a heartbeat says were asked to be cancelled, and under which name
     */
    Liveness(TaskConsuming store, QueueMaintenance maintenance, Logger log, WorkerOptions options, Clock clock,
             Scheduler scheduler, BackendStatus backend, StoreClosedAlarm storeClosed, WorkerListener listeners,
             HeldTasks held, BiConsumer<ConsumerId, Set<TaskId>> cancelRequested) {
        this.store = store;
        this.maintenance = maintenance;
        this.queue = store.queue();
        this.log = log;
        this.options = options;
        this.clock = clock;
        this.scheduler = scheduler;
        this.backend = backend;
        this.storeClosed = storeClosed;
        this.listeners = listeners;
        this.held = held;
        this.cancelRequested = cancelRequested;
    }

    /** Takes the configured name and starts heartbeating and reaping. */
    void start() {
        current = newIncarnation();
        heartbeats = new PeriodicJob("heartbeat of queue " + queue, scheduler, this::heartbeatInterval, this::heartbeat);
        reaper = new PeriodicJob("reaper of queue " + queue, scheduler, this::reaperInterval, this::reap);
        heartbeats.start(Duration.ZERO);
        // at once: a worker restarted after a crash returns what its dead predecessor held without waiting
        // a whole default interval (the queue's own TTL is known only after the first heartbeat)
        reaper.start(Duration.ZERO);
    }

    /** Stops heartbeating and reaping; nothing if never started. */
    void cancel() {
        if (heartbeats != null) {
            heartbeats.cancel();
            reaper.cancel();
        }
    }

    /** The name fetched under now; null before the start. */
    Incarnation current() {
        return current;
    }

    /** The name to fetch under: the current one, or a new one if the current was retired. */
    Incarnation forFetching() {
        if (current.retired()) {
            current = newIncarnation();
            log.info("queue {}: fetching as {} from now on; {} expires and the reaper returns what it may hold",
                    queue, current.consumer, options.consumer());
        }
        return current;
    }

    /** The queue's heartbeat TTL as of the last heartbeat: leases not renewed for that long are lost. */
    Duration heartbeatTtl() {
        return heartbeatTtl;
    }

    /** The queue's processing timeout as of the last heartbeat (zero: none). */
    Duration processingTimeout() {
        return processingTimeout;
    }

    /** One heartbeat with the shortest TTL per name: the consumer stops counting as live at once. */
    void expireAll() {
        for (Incarnation incarnation : incarnations) {
            try {
                store.heartbeat(incarnation.consumer, EXPIRE_AT_ONCE);
            } catch (RuntimeException e) {
                return; // unreachable: the names expire on their own after the TTL
            }
        }
    }

    private void heartbeat() {
        try {
            QueueSettings settings = store.settings();
            heartbeatTtl = settings.heartbeatTtl();
            processingTimeout = settings.processingTimeout();
            for (Incarnation incarnation : incarnations) {
                if (!incarnation.needsHeartbeat()) {
                    incarnations.remove(incarnation); // unrenewed, it expires and the reaper returns what it held
                    continue;
                }
                long startedAt = clock.millis();
                // a report lost with a failed heartbeat is not sent again: the handler's next one is
                Set<TaskId> cancelled = store.heartbeat(incarnation.consumer, heartbeatTtl,
                        held.takeProgress(incarnation));
                incarnation.renewed(startedAt);
                cancelRequested.accept(incarnation.consumer, cancelled);
            }
            backend.succeeded();
        } catch (StoreClosedException e) {
            storeClosed.raise(e);
        } catch (RuntimeException e) {
            backend.failed(e);
        }
    }

    private void reap() {
        try {
            ReclaimReport report = maintenance.reclaim();
            backend.succeeded();
            if (report.returned() > 0 || report.deadLettered() > 0) {
                log.info("queue {}: reclaimed {} task(s) ({} now dead letters) from dead consumers {} and {} timed out",
                        queue, report.returned() + report.deadLettered(), report.deadLettered(),
                        report.deadConsumers(), report.timedOut());
            }
            // dead letters past the queue's caps (those that aged out, a cap lowered): any number of workers may trim
            long dropped = maintenance.trimDeadLetters();
            if (dropped > 0) {
                log.info("queue {}: deleted {} dead letter(s) past the queue's caps", queue, dropped);
            }
            // completed tasks kept past the queue's result retention: as many workers as there are may expire them
            long expired = maintenance.expireCompleted();
            if (expired > 0) {
                log.debug("queue {}: deleted {} completed task(s) past the result retention", queue, expired);
            }
            // the queue's schedules fire with the reaper: every worker fires them, the store lets one firing win
            ScheduleFiring fired = maintenance.fireDueSchedules();
            if (fired.tasksCreated() > 0) {
                log.info("queue {}: {} schedule(s) published {} task(s)", queue, fired.schedulesFired(),
                        fired.tasksCreated());
            }
            if (fired.schedulesMissed() > 0) {
                log.warn("queue {}: {} schedule(s) let due slots pass unpublished (their misfire policy skipped them)",
                        queue, fired.schedulesMissed());
            }
            if (fired.schedulesFired() > 0) {
                listeners.schedulesFired(fired);
            }
        } catch (StoreClosedException e) {
            storeClosed.raise(e);
        } catch (RuntimeException e) {
            backend.failed(e);
        }
    }

    private Duration heartbeatInterval() {
        return options.heartbeatInterval().orElseGet(this::thirdOfTtl);
    }

    private Duration reaperInterval() {
        return options.reaperInterval().orElseGet(this::thirdOfTtl);
    }

    private Duration thirdOfTtl() {
        return Duration.ofMillis(Math.max(1, heartbeatTtl.toMillis() / 3));
    }

    private Incarnation newIncarnation() {
        int number = incarnationCount.incrementAndGet();
        String base = options.consumer().value();
        ConsumerId name = number == 1 ? options.consumer() : ConsumerId.of(suffixed(base, "~" + number));
        Incarnation incarnation = new Incarnation(name, clock.millis());
        incarnations.add(incarnation);
        return incarnation;
    }

    private static String suffixed(String base, String suffix) {
        return Text.prefix(base, ConsumerId.MAX_LENGTH - suffix.length()) + suffix;
    }
}
