package io.ordo.runtime.metrics;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Lease;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.domain.Schedule;
import io.ordo.domain.QueueName;
import io.ordo.domain.ConsumerId;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.VirtualClock;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.ports.TaskStore;
import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.Scheduler;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerOptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Workers from the Guice module report every outcome under the documented names. */
class WorkerMetricsTest {
    record Job(String name, String behaviour) {
    }

    private static final QueueName QUEUE = QueueName.of("jobs");

    private final VirtualClock clock = new VirtualClock();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final Injector injector = Guice.createInjector(new InMemoryQueueModule(clock), new RuntimeModule(registry));
    private final Workers workers = injector.getInstance(Workers.class);

    @Test
    void every_outcome_is_counted_and_timed_under_the_queues_tag() throws Exception {
        Publisher<Job> publisher = workers.publisher(QUEUE);
        Partition jobs = Partition.regular("jobs");
        publisher.publishAll(List.of(
                Publication.of(jobs, new Job("a", "succeed")), Publication.of(jobs, new Job("b", "succeed")),
                Publication.of(jobs, new Job("c", "throw")), Publication.of(jobs, new Job("d", "fail")),
                Publication.of(jobs, new Job("e", "retry"))));
        Set<String> done = ConcurrentHashMap.newKeySet();
        Worker<Job> worker = workers.worker(QUEUE, Job.class, (job, context) -> {
            done.add(job.name());
            return switch (job.behaviour()) {
                case "throw" -> throw new IllegalStateException("boom");
                case "fail" -> Outcome.fail("bad job");
                case "retry" -> Outcome.retryAfter(Duration.ofHours(1), "later");
                default -> Outcome.success();
            };
        }, WorkerOptions.builder().consumer("metrics-worker").fetchWait(Duration.ofMillis(20)).build());

        worker.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (count(MetricNames.PROCESSED) + count(MetricNames.DEAD_LETTERED) + count(MetricNames.RETRIED) < 5
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        worker.stop();

        assertThat(count(MetricNames.PROCESSED)).isEqualTo(2);
        assertThat(count(MetricNames.DEAD_LETTERED)).as("d failed").isEqualTo(1);
        assertThat(count(MetricNames.RETRIED)).as("c threw, e asked for a retry").isEqualTo(2);
        assertThat(registry.get(MetricNames.FAILED).tag("outcome", "error").counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.FAILED).tag("outcome", "fail").counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.FAILED).tag("outcome", "retry_after").counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.PROCESSING_TIME).tag("result", "success").timer().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.PROCESSING_TIME).tag("result", "failure").timer().count()).isEqualTo(3);
        assertThat(registry.get(MetricNames.FETCH_LATENCY).tag("result", "tasks").timer().count()).isPositive();
        assertThat(registry.get(MetricNames.WORKER_HELD).gauge().value()).isZero();
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTag("queue")).isEqualTo("jobs"));
    }

    @Test
    void the_meters_are_exactly_the_documented_ones() {
        workers.worker(QUEUE, Job.class, (job, context) -> Outcome.success(), WorkerOptions.create());

        // a registry without native histograms (this one) adds one gauge per bucket set, named <timer>.histogram
        Set<String> names = registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName)
                .filter(name -> !name.endsWith(".histogram")).collect(Collectors.toSet());

        assertThat(names).containsExactlyInAnyOrder(MetricNames.PROCESSED, MetricNames.FAILED, MetricNames.RETRIED,
                MetricNames.DEAD_LETTERED, MetricNames.RATE_LIMITED, MetricNames.RETURNED, MetricNames.PROCESSING_TIME,
                MetricNames.FETCH_LATENCY, MetricNames.WORKER_HELD, MetricNames.WORKER_READY, MetricNames.QUEUE_READY,
                MetricNames.QUEUE_DELAYED, MetricNames.QUEUE_IN_FLIGHT, MetricNames.QUEUE_DEAD, MetricNames.QUEUE_COMPLETED,
                MetricNames.QUEUE_OLDEST_DUE_AGE, MetricNames.QUEUE_LIVE_CONSUMERS, MetricNames.SCHEDULES_FIRED,
                MetricNames.SCHEDULES_MISSED, MetricNames.QUEUE_CAPPED_PARTITIONS, MetricNames.QUEUE_THROTTLED_PARTITIONS,
                MetricNames.CANCELLED, MetricNames.LEASE_EXTENSIONS, MetricNames.QUEUE_DEAD_LETTERS_DROPPED,
                MetricNames.PROGRESS_REPORTED);
    }

    @Test
    void cancelled_runs_lease_extensions_and_progress_reports_are_counted() throws Exception {
        Publisher<Job> publisher = workers.publisher(QUEUE);
        Partition jobs = Partition.regular("jobs");
        publisher.publishAll(List.of(Publication.of(jobs, new Job("a", "run until cancelled")).withId("a"),
                Publication.of(jobs, new Job("b", "extend"))));
        CountDownLatch aRuns = new CountDownLatch(1);
        Worker<Job> worker = workers.worker(QUEUE, Job.class, (job, context) -> {
            if (job.behaviour().equals("extend")) {
                context.reportProgress(40, "");
                context.reportProgress(90, "almost");
                context.extendLease(Duration.ofMinutes(1));
                return Outcome.success();
            }
            aRuns.countDown();
            while (!context.isCancelled()) {
                Thread.sleep(1);
            }
            return Outcome.success();
        }, WorkerOptions.builder().consumer("metrics-worker").fetchWait(Duration.ofMillis(20))
                .heartbeatInterval(Duration.ofMillis(20)).build());

        worker.start();
        assertThat(aRuns.await(10, TimeUnit.SECONDS)).isTrue();
        workers.store(QUEUE).cancel(List.of(TaskId.of("a")));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while ((cancelled("stopped") < 1 || count(MetricNames.PROCESSED) < 1) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        worker.stop();

        assertThat(cancelled("stopped")).isEqualTo(1);
        assertThat(cancelled("not_started") + cancelled("interrupted") + cancelled("abandoned")).isZero();
        assertThat(registry.get(MetricNames.LEASE_EXTENSIONS).tag("outcome", "extended").counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.LEASE_EXTENSIONS).tag("outcome", "lease_lost").counter().count()).isZero();
        assertThat(count(MetricNames.PROCESSED)).as("b only").isEqualTo(1);
        assertThat(registry.get(MetricNames.PROGRESS_REPORTED).summary().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.PROGRESS_REPORTED).summary().max()).isEqualTo(90);
        assertThat(registry.get(MetricNames.FAILED).counters()).as("a cancellation is no failure")
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
        assertThat(registry.get(MetricNames.CANCELLED).counters())
                .allSatisfy(counter -> assertThat(counter.getId().getTag("queue")).isEqualTo("jobs"));
    }

    private double cancelled(String outcome) {
        return registry.get(MetricNames.CANCELLED).tag("outcome", outcome).counter().count();
    }

    @Test
    void the_dead_letters_the_caps_dropped_are_a_counter_of_the_queues_total_kept_while_the_backend_is_away() {
        TaskStore store = workers.store(QUEUE);
        store.configure(QueueSettings.builder().deadLetterMaxCount(1).build());
        boolean[] away = {false};
        TaskStore flaky = (TaskStore) java.lang.reflect.Proxy.newProxyInstance(TaskStore.class.getClassLoader(),
                new Class<?>[] {TaskStore.class}, (proxy, method, args) -> {
                    if (away[0] && method.getName().equals("stats")) {
                        throw new io.ordo.ports.QueueUnavailableException("away");
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        QueueGauges gauges = new QueueGauges(registry, flaky, Scheduler.system(), Duration.ofSeconds(5));
        assertThat(dropped()).as("before the first refresh").isNaN();
        Partition jobs = Partition.regular("jobs");
        workers.publisher(QUEUE).publishAll(List.of(Publication.of(jobs, new Job("a", "")),
                Publication.of(jobs, new Job("b", "")), Publication.of(jobs, new Job("c", ""))));
        ConsumerId operator = ConsumerId.of("operator");
        store.fail(operator, store.consume(operator, 3, Duration.ZERO).stream().map(lease -> lease.id()).toList(), "no");

        gauges.refresh();
        assertThat(dropped()).isEqualTo(2);
        away[0] = true;
        gauges.refresh();

        assertThat(gauge(MetricNames.QUEUE_DEAD)).as("a gauge").isNaN();
        assertThat(dropped()).as("the last total read").isEqualTo(2);
        assertThat(registry.get(MetricNames.QUEUE_DEAD_LETTERS_DROPPED).functionCounter().getId().getTags())
                .extracting(io.micrometer.core.instrument.Tag::getKey).contains(MetricNames.QUEUE_TAG, MetricNames.GROUP_TAG);
    }

    @Test
    void queue_gauges_show_the_queues_counts_as_of_the_last_refresh_and_nan_before_any() {
        TaskStore store = workers.store(QUEUE);
        store.configure(QueueSettings.builder().partitionConcurrency(1)
                .partitionRateLimit(RateLimit.of(1, Duration.ofMinutes(1))).resultRetention(Duration.ofHours(1)).build());
        QueueGauges gauges = new QueueGauges(registry, store, Scheduler.system(), Duration.ofSeconds(5));
        assertThat(gauge(MetricNames.QUEUE_READY)).as("before the first refresh").isNaN();
        Publisher<Job> publisher = workers.publisher(QUEUE);
        publisher.publishAll(List.of(Publication.of(Partition.regular("done"), new Job("kept", ""))));
        ConsumerId someone = ConsumerId.of("someone");
        store.ack(someone, store.consume(someone, 1, Duration.ZERO).stream().map(Lease::id).toList()); // kept
        Partition jobs = Partition.regular("jobs");
        publisher.publishAll(List.of(Publication.of(jobs, new Job("a", "")), Publication.of(jobs, new Job("b", "")),
                Publication.of(jobs, new Job("later", "")).withDelay(Duration.ofMinutes(1))));
        store.consume(someone, 1, Duration.ZERO);
        clock.advance(Duration.ofMillis(1500));

        gauges.refresh();

        assertThat(gauge(MetricNames.QUEUE_READY)).isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_DELAYED)).isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_IN_FLIGHT)).isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_DEAD)).isZero();
        assertThat(gauge(MetricNames.QUEUE_COMPLETED)).as("kept, with its (empty) result").isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_OLDEST_DUE_AGE)).isEqualTo(1.5);
        assertThat(gauge(MetricNames.QUEUE_LIVE_CONSUMERS)).isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_CAPPED_PARTITIONS)).as("jobs: b waits, a holds its one slot").isEqualTo(1);
        assertThat(gauge(MetricNames.QUEUE_THROTTLED_PARTITIONS)).as("jobs: b waits, a took its one token").isEqualTo(1);
    }

    @Test
    void schedule_firings_and_those_that_let_slots_pass_are_counted() throws Exception {
        TaskStore store = workers.store(QUEUE);
        long now = clock.millis();
        store.putSchedule(Schedule.builder("on-time", Partition.regular("reports"), "{}".getBytes(StandardCharsets.UTF_8))
                .every(Duration.ofHours(1)).start(Instant.ofEpochMilli(now)).build());
        // slots 12, 7 and 2 minutes ago with no worker: skip publishes only a slot under a minute old, so none
        store.putSchedule(Schedule.builder("late", Partition.regular("reports"), "{}".getBytes(StandardCharsets.UTF_8))
                .every(Duration.ofMinutes(5)).misfire(MisfirePolicy.skip())
                .start(Instant.ofEpochMilli(now - Duration.ofMinutes(12).toMillis())).build());
        Worker<Job> worker = workers.worker(QUEUE, Job.class, (job, context) -> Outcome.success(),
                WorkerOptions.builder().consumer("firing-worker").fetchWait(Duration.ofMillis(20)).build());

        worker.start(); // the reaper fires at once
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (count(MetricNames.SCHEDULES_FIRED) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        worker.stop();

        assertThat(count(MetricNames.SCHEDULES_FIRED)).isEqualTo(2);
        assertThat(count(MetricNames.SCHEDULES_MISSED)).as("late").isEqualTo(1);
        assertThat(store.stats().publishedTotal()).as("on-time's first slot only").isEqualTo(1);
    }

    private double dropped() {
        return registry.get(MetricNames.QUEUE_DEAD_LETTERS_DROPPED).functionCounter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private double count(String name) {
        return registry.find(name).counters().stream().mapToDouble(counter -> counter.count()).sum();
    }
}
