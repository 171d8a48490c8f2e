package io.ordo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.inject.Injector;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ordo.cli.work.DemoHandler;
import io.ordo.cli.work.ProgressLine;
import io.ordo.cli.work.TaskJournal;
import io.ordo.cli.work.TaskLog;
import io.ordo.cli.work.WorkTally;
import io.ordo.domain.GroupName;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.OrdoException;
import io.ordo.domain.Partition;
import io.ordo.domain.PublishRules;
import io.ordo.domain.QueueName;
import io.ordo.domain.RetryPolicy;
import io.ordo.opshttp.OpsHttpServer;
import io.ordo.ports.Clock;
import io.ordo.ports.LeaseControls;
import io.ordo.ports.QueueBound;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskInspection;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.Publication;
import io.ordo.runtime.Publisher;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import io.ordo.runtime.worker.ConsumerNames;
import io.ordo.runtime.worker.Worker;
import io.ordo.runtime.worker.WorkerHealth;
import io.ordo.runtime.worker.WorkerListener;
import io.ordo.runtime.worker.WorkerOptions;
import io.ordo.runtime.worker.WorkerState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Runs a worker on a queue with a demo handler that works for {@code --work-time} and fails at
 * {@code --failure-rate}, until Ctrl-C (SIGINT) or SIGTERM, which stop it gracefully.
 *
 * <pre>
 * ordo work --backend lettuce --redis redis://localhost:6379 --queue orders --concurrency 8 --metrics-port 9090
 * ordo work --queue demo --demo-tasks 200 --failure-rate 0.1 --until-empty
 * </pre>
 */
@Command(name = "work", mixinStandardHelpOptions = true,
        description = {"Works on a queue with a demo handler until Ctrl-C or SIGTERM stops it gracefully.",
                "Stopping: no more fetching, running tasks finish within the grace period, the rest go",
                "back at once. The demo handler accepts any JSON payload, works for --work-time and",
                "fails at --failure-rate."},
        footer = {"", "Examples:",
                "  ordo work --backend lettuce --queue orders --concurrency 8 --metrics-port 9090",
                "  ordo work --queue demo --demo-tasks 200 --failure-rate 0.1 --until-empty"})
final class WorkCommand implements Callable<Integer> {
    private static final Duration EMPTY_CHECK_INTERVAL = Duration.ofMillis(200);
    private static final Duration BACKEND_WAIT_MAX_PAUSE = Duration.ofSeconds(2);
    private static final int MAX_PORT = 65_535;
    private static final Partition[] DEMO_PARTITIONS = {
            Partition.regular("emails"), Partition.regular("thumbnails"), Partition.ordered("account-1"),
            Partition.ordered("account-2")};

    @Mixin
    BackendOptions backend;

    @Option(names = "--queue", paramLabel = "NAME", defaultValue = QueueCommand.DEFAULT_QUEUE,
            description = "The queue to work on (default: ${DEFAULT-VALUE}).")
    String queue;

    @Option(names = "--group", paramLabel = "NAME",
            description = "Work on a consumer group of the queue instead of its own view (see 'ordo group').")
    String group;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "4",
            description = "Handler threads (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--prefetch", paramLabel = "N",
            description = "The most tasks held at once, running or waiting for a thread (default: twice the concurrency).")
    Integer prefetch;

    @Option(names = "--consumer", paramLabel = "NAME",
            description = {"The consumer name's base; a tag unique to this start is appended, so a worker restarted",
                    "in place is a new consumer (default: host name and process id; HOSTNAME on Kubernetes)."})
    String consumer;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long running tasks may finish at shutdown (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--cancel-grace", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = {"How long the handler of a task whose cancellation was asked may keep its thread: it is",
                    "interrupted halfway, and given up at the end if it ignores that (default: ${DEFAULT-VALUE})."})
    Duration cancelGrace;

    @Option(names = "--retry-delay", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "The first retry's delay; each next one doubles, with jitter (default: ${DEFAULT-VALUE}).")
    Duration retryDelay;

    @Option(names = "--retry-max-delay", paramLabel = "DURATION", defaultValue = "10m", converter = DurationConverter.class,
            description = "The longest retry delay (default: ${DEFAULT-VALUE}).")
    Duration retryMaxDelay;

    @Option(names = "--work-time", paramLabel = "DURATION", defaultValue = "100ms", converter = DurationConverter.class,
            description = "Demo handler: how long each task takes (default: ${DEFAULT-VALUE}).")
    Duration workTime;

    @Option(names = "--extend-lease", paramLabel = "DURATION", converter = DurationConverter.class,
            description = {"Demo handler: while it works, extend the task's lease to DURATION from now, every third",
                    "of DURATION (long tasks that outlive the processing timeout; docs/task-control.md)."})
    Duration extendLease;

    @Option(names = "--failure-rate", paramLabel = "FRACTION", defaultValue = "0",
            description = "Demo handler: the share of attempts that throw, 0..1 (default: ${DEFAULT-VALUE}).")
    double failureRate;

    @Option(names = "--demo-tasks", paramLabel = "N", defaultValue = "0",
            description = "Publish N demo tasks first, over two regular and two ordered partitions.")
    int demoTasks;

    @Option(names = "--until-empty",
            description = "Stop (gracefully) once nothing is waiting or in flight; dead letters do not count.")
    boolean untilEmpty;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve /metrics (Prometheus), /healthz and /readyz on this port (0: any free port).")
    Integer metricsPort;

    @Option(names = "--log-tasks", description = "Print one line per task event on stdout.")
    boolean logTasks;

    @Option(names = "--crash-on", paramLabel = "TEXT",
            description = "Fault drill: the demo handler halts the whole process (exit 97, no shutdown) on payloads containing TEXT.")
    String crashOn;

    @Option(names = "--hang-on", paramLabel = "TEXT",
            description = "Fault drill: the demo handler never returns, deaf to interrupts, on payloads containing TEXT.")
    String hangOn;

    @Option(names = "--journal", paramLabel = "FILE",
            description = {"Fault drill: the demo handler appends a line to FILE when it begins a task, is done (before",
                    "the ack), fails or crashes: begin|done|fail|crash, pid, task, partition, attempt, epoch ms."})
    Path journal;

    @Spec
    CommandSpec spec;

    private final RandomGenerator random = RandomGenerator.getDefault();

    @Override
    public Integer call() {
        WorkerOptions options = options();
        if (!(failureRate >= 0 && failureRate <= 1)) {
            throw new InvalidInputException("--failure-rate", "must be between 0 and 1, was " + failureRate);
        }
        if (extendLease != null) {
            LeaseControls.extensionMillis(extendLease); // named --extend-lease (CliTerms)
        }
        if (demoTasks < 0) {
            throw new InvalidInputException("--demo-tasks", "must not be negative, was " + demoTasks);
        }
        QueueName queueName = QueueName.of(queue);
        if (metricsPort != null && (metricsPort < 0 || metricsPort > MAX_PORT)) {
            throw new ParameterException(spec.commandLine(), "--metrics-port must be 0 (any free port) to "
                    + MAX_PORT + ", was " + metricsPort);
        }
        Deadline deadline = new Deadline(backend.timeout(), backend.describe());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Injector injector = backend.injector(Clock.system(), new RuntimeModule(registry));
        TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class);
        Run run = new Run(stores);
        Thread hook = new Thread(run::stop, "ordo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            GroupName groupName = group == null ? null : GroupName.of(group);
            TaskStore store = groupName == null ? stores.forQueue(queueName) : stores.forGroup(queueName, groupName);
            if (metricsPort != null) {
                // probes answer from the start: live, and not ready until the backend answers and work begins
                run.server = serveMetrics(registry, run::health);
                err().printf("ordo: metrics on http://localhost:%d/metrics, probes /healthz and /readyz%n",
                        run.server.port());
                err().flush();
                if (!awaitBackend(store, deadline, run)) {
                    return ExitCodes.OK; // stopped by a signal while waiting
                }
            } else {
                deadline.within(store::settings); // fails here, in one line, if the backend is not there at all
            }
            publishDemoTasks(injector.getInstance(Workers.class).publisher(queueName));
            List<WorkerListener> listeners = new ArrayList<>(List.of(run.tally));
            if (logTasks) {
                listeners.add(new TaskLog(out()));
            }
            DemoHandler handler = new DemoHandler(workTime, failureRate, random, drills(run),
                    Optional.ofNullable(extendLease));
            WorkerListener[] extra = listeners.toArray(WorkerListener[]::new);
            Workers workers = injector.getInstance(Workers.class);
            Worker<JsonNode> worker = groupName == null
                    ? workers.worker(queueName, JsonNode.class, handler, options, extra)
                    : workers.worker(queueName, groupName, JsonNode.class, handler, options, extra);
            run.worker = worker;
            if (run.stopRequested) {
                return ExitCodes.OK;
            }
            worker.start();
            run.progress = ProgressLine.startIfTerminal(err(), run.tally, worker);
            announce(worker);
            if (untilEmpty) {
                stopWhenEmpty(store, worker);
            }
            worker.awaitStopped();
        } finally {
            run.finish();
            removeHook(hook);
        }
        return ExitCodes.OK;
    }

    /** Everything a run opened, closed once: by the main thread, or by the shutdown hook on a signal. */
    private final class Run {
        final TaskStoreFactory stores;
        final WorkTally tally = new WorkTally();
        volatile Worker<JsonNode> worker;
        volatile OpsHttpServer server;
        volatile ProgressLine progress;
        volatile TaskJournal journal;
        volatile boolean stopRequested;
        private boolean finished;

        Run(TaskStoreFactory stores) {
            this.stores = stores;
        }

        /** On SIGTERM or SIGINT: stop gracefully, then close everything before the JVM exits. */
        void stop() {
            stopRequested = true;
            if (progress != null) {
                progress.close(); // the log lines of the shutdown start on a clean line
            }
            Worker<JsonNode> running = worker;
            if (running != null) {
                running.stop();
            }
            finish();
        }

        /** The worker's health once it exists; before that live (the process is fine) and not ready. */
        WorkerHealth health() {
            Worker<JsonNode> running = worker;
            return running == null ? new WorkerHealth(WorkerState.NEW, false, 0) : running.health();
        }

        synchronized void finish() {
            if (finished) {
                return;
            }
            finished = true;
            if (progress != null) {
                progress.close();
            }
            if (server != null) {
                server.close();
            }
            stores.close();
            if (journal != null) {
                journal.close();
            }
            if (worker != null) {
                err().printf(Locale.ROOT, "ordo: stopped: %s (%.1f/s)%n", tally.describe(),
                        progress == null ? 0.0 : progress.averageRate());
                err().flush();
            }
        }
    }

    private WorkerOptions options() {
        WorkerOptions.Builder options = WorkerOptions.builder().concurrency(concurrency).gracePeriod(grace)
                .cancelGrace(cancelGrace)
                .retryPolicy(new RetryPolicy(retryDelay, RetryPolicy.DEFAULT_MULTIPLIER, retryMaxDelay,
                        RetryPolicy.DEFAULT_JITTER));
        if (prefetch != null) {
            options.prefetch(prefetch);
        }
        if (consumer != null) {
            options.consumer(ConsumerNames.startUnique(consumer));
        }
        return options.build();
    }

    private DemoHandler.Drills drills(Run run) {
        if (crashOn != null && crashOn.isEmpty()) {
            throw new InvalidInputException("--crash-on", "must not be empty");
        }
        if (hangOn != null && hangOn.isEmpty()) {
            throw new InvalidInputException("--hang-on", "must not be empty");
        }
        if (journal != null) {
            try {
                run.journal = TaskJournal.appendingTo(journal);
            } catch (UncheckedIOException e) {
                throw new ParameterException(spec.commandLine(), "--journal " + journal + ": " + e.getCause().getMessage());
            }
        }
        return new DemoHandler.Drills(Optional.ofNullable(crashOn), Optional.ofNullable(hangOn),
                Optional.ofNullable(run.journal));
    }

    private void publishDemoTasks(Publisher<JsonNode> publisher) {
        List<Publication<JsonNode>> batch = new ArrayList<>();
        for (int i = 1; i <= demoTasks; i++) {
            Partition partition = DEMO_PARTITIONS[i % DEMO_PARTITIONS.length];
            batch.add(Publication.of(partition, (JsonNode) JsonNodeFactory.instance.objectNode().put("demo", i)));
            if (batch.size() == PublishRules.MAX_BATCH || i == demoTasks) {
                publisher.publishAll(batch);
                batch.clear();
            }
        }
        if (demoTasks > 0) {
            err().printf("ordo: published %d demo tasks%n", demoTasks);
        }
    }

    private void announce(Worker<?> worker) {
        PrintWriter err = err();
        err.printf("ordo: working on queue %s on %s as %s (concurrency %d, prefetch %d)%n", worker.queue(),
                backend.describe(), worker.consumer(), worker.options().concurrency(), worker.options().prefetch());
        err.println(untilEmpty ? "ordo: stops once the queue is empty; Ctrl-C stops earlier"
                : "ordo: Ctrl-C stops gracefully (grace " + grace.toMillis() / 1000.0 + " s)");
        err.flush();
    }

    private void stopWhenEmpty(TaskInspection store, Worker<?> worker) {
        while (worker.state() == WorkerState.RUNNING) {
            try {
                QueueStats stats = store.stats();
                if (stats.ready() + stats.delayed() + stats.inFlight() == 0 && worker.heldTasks() == 0) {
                    worker.stop();
                    return;
                }
            } catch (RuntimeException unreachable) {
                // the worker reports the outage; try again
            }
            try {
                Thread.sleep(EMPTY_CHECK_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // a signal arrived meanwhile: the hook runs and finds everything done
        }
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * Serving probes means running as a service (Kubernetes, systemd), where Redis may come up after
     * the worker: it waits for the backend, saying so once, and starts working when it answers. Without
     * probes it is run by hand, and a backend that does not answer is most likely a typo: it fails at once.
     * False when a signal stopped the wait.
     */
    private boolean awaitBackend(QueueBound store, Deadline deadline, Run run) {
        long pause = 100;
        boolean said = false;
        while (!run.stopRequested) {
            try {
                deadline.within(store::settings);
                if (said) {
                    err().printf("ordo: %s answers: starting%n", backend.describe());
                    err().flush();
                }
                return true;
            } catch (InvalidInputException e) {
                throw e;
            } catch (OrdoException unavailable) {
                if (!said) {
                    said = true;
                    err().printf("ordo: %s; waiting for it (/healthz 200, /readyz 503 until it answers)%n",
                            unavailable.getMessage());
                    err().flush();
                }
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            pause = Math.min(pause * 2, BACKEND_WAIT_MAX_PAUSE.toMillis());
        }
        return false;
    }

    private OpsHttpServer serveMetrics(PrometheusMeterRegistry registry, Supplier<WorkerHealth> health) {
        try {
            return OpsHttpServer.start(metricsPort, registry, health);
        } catch (UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--metrics-port " + metricsPort + ": "
                    + e.getCause().getMessage());
        }
    }
}
