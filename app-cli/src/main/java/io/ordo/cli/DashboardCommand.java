package io.ordo.cli;

import com.google.inject.Injector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.cli.dashboard.AccessGuard;
import io.ordo.cli.dashboard.DashboardServer;
import io.ordo.cli.dashboard.DemoActivity;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.runtime.RuntimeModule;
import io.ordo.runtime.Workers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Serves the operator dashboard (a web page and a JSON API) until Ctrl-C or SIGTERM.
 *
 * <pre>
 * ordo dashboard --demo
 * ordo dashboard --backend lettuce --redis redis://localhost:6379 --listen 127.0.0.1:7420
 * </pre>
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = {"Serves the operator dashboard: queues, partitions, consumers and dead letters, with actions.",
                "Anyone who reaches it may look; actions (pause, resume, redrive, purge, cancel, unblock) need",
                "the token: --token, else $" + DashboardCommand.TOKEN_ENVIRONMENT_VARIABLE + ", else a fresh one printed once."},
        footer = {"", "Examples:", "  ordo dashboard --demo",
                "  ordo dashboard --backend lettuce --redis redis://localhost:6379 --listen 127.0.0.1:7420"})
final class DashboardCommand implements Callable<Integer> {
    static final String TOKEN_ENVIRONMENT_VARIABLE = "ORDO_DASHBOARD_TOKEN";
    static final String DEFAULT_LISTEN = "127.0.0.1:7420";
    private static final Duration MIN_SAMPLE_EVERY = Duration.ofMillis(100);
    private static final Duration MAX_SAMPLE_EVERY = Duration.ofMinutes(1);

    @Mixin
    BackendOptions backend;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = DEFAULT_LISTEN,
            description = "Where to serve (default: ${DEFAULT-VALUE}, this machine only; port 0: any free port).")
    String listen;

    // The description names the variable, never its value.
    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:" + TOKEN_ENVIRONMENT_VARIABLE + "}",
            description = "The token actions need, at least 16 characters (default: $" + TOKEN_ENVIRONMENT_VARIABLE
                    + " if set, else a random one, printed once).")
    String token;

    @Option(names = "--read-only", description = "Allow no actions at all.")
    boolean readOnly;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "A queue to show even while it holds nothing (repeatable); queues holding data show anyway.")
    List<String> queues = new ArrayList<>();

    @Option(names = "--sample-every", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "How often throughput is read, 100ms..1m (default: ${DEFAULT-VALUE}).")
    Duration sampleEvery;

    @Option(names = "--demo", description = "Fill the queue 'demo' when it is empty and keep it busy while the dashboard runs.")
    boolean demo;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address = address();
        if (sampleEvery.compareTo(MIN_SAMPLE_EVERY) < 0 || sampleEvery.compareTo(MAX_SAMPLE_EVERY) > 0) {
            throw new InvalidInputException("--sample-every", "must be between 100ms and 1m, was " + sampleEvery.toMillis() + "ms");
        }
        if (readOnly && token != null && spec.commandLine().getParseResult().hasMatchedOption("--token")) {
            throw new ParameterException(spec.commandLine(), "--token and --read-only exclude each other");
        }
        if (!readOnly && token != null && token.length() < AccessGuard.MIN_TOKEN_LENGTH) {
            throw new InvalidInputException("--token", "must have at least " + AccessGuard.MIN_TOKEN_LENGTH
                    + " characters (or leave it out for a random one)");
        }
        List<QueueName> named = new ArrayList<>(queues.stream().map(QueueName::of).toList());
        if (demo) {
            named.add(DemoActivity.QUEUE);
        }
        boolean generated = !readOnly && token == null;
        String actionToken = generated ? AccessGuard.generateToken() : token;
        AccessGuard guard = readOnly ? AccessGuard.readOnly(address.getAddress())
                : AccessGuard.withToken(actionToken, address.getAddress());

        Injector injector = backend.injector(Clock.system(), new RuntimeModule(new SimpleMeterRegistry()));
        TaskStoreFactory stores = injector.getInstance(TaskStoreFactory.class);
        CountDownLatch stopped = new CountDownLatch(1);
        Running running = new Running(stores);
        Thread hook = new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "ordo-dashboard-shutdown");
        try {
            if (demo) {
                running.demo = DemoActivity.start(injector.getInstance(Workers.class), line -> err().println("ordo: " + line));
            }
            running.server = serve(stores, address, guard, named);
            Runtime.getRuntime().addShutdownHook(hook);
            announce(running.server, generated ? actionToken : null);
            stopped.await();
        } finally {
            running.close();
        }
        return ExitCodes.OK;
    }

    /** Everything the command opened, closed once, by the main thread or by the shutdown hook. */
    private static final class Running {
        final TaskStoreFactory stores;
        volatile DemoActivity demo;
        volatile DashboardServer server;
        private boolean closed;

        Running(TaskStoreFactory stores) {
            this.stores = stores;
        }

        synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (server != null) {
                server.close();
            }
            if (demo != null) {
                demo.close();
            }
            stores.close();
        }
    }

    private DashboardServer serve(TaskStoreFactory stores, InetSocketAddress address, AccessGuard guard, List<QueueName> named) {
        try {
            return DashboardServer.start(stores, backend.describe(), address, guard, named, sampleEvery);
        } catch (UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--listen " + listen + ": " + e.getCause().getMessage());
        }
    }

    private InetSocketAddress address() {
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw new InvalidInputException("--listen", "must be HOST:PORT, e.g. " + DEFAULT_LISTEN + ", was '" + listen + "'");
        }
        String host = listen.substring(0, colon).replaceAll("^\\[(.*)]$", "$1");
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new InvalidInputException("--listen", "the port must be a number, was '" + listen.substring(colon + 1) + "'");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidInputException("--listen", "the port must be 0..65535, was " + port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new InvalidInputException("--listen", "unknown host '" + host + "'");
        }
    }

    private void announce(DashboardServer server, String generatedToken) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("dashboard: " + server.url());
        if (generatedToken != null) {
            out.println("token (printed once; actions need it): " + generatedToken);
            out.println("open with actions unlocked: " + server.url() + "#token=" + generatedToken);
        }
        out.flush();
        PrintWriter err = err();
        err.printf("ordo: dashboard of %s%s%n", backend.describe(),
                readOnly ? ", read-only" : generatedToken == null ? ", actions with the given token" : "");
        if (backend.backend() == Backend.INMEMORY && !demo) {
            err.println("ordo: note: the inmemory backend holds only what this process puts there; try --demo");
        }
        err.println("ordo: Ctrl-C stops it");
        err.flush();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
