package io.ordo.cli;

import com.google.inject.Injector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ordo.dashboard.AccessGuard;
import io.ordo.dashboard.DashboardServer;
import io.ordo.cli.demo.DemoActivity;
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

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;

/**
 * Serves the operator dashboard (a web page and a JSON API) until Ctrl-C or SIGTERM.
 *
 * <pre>
 * ordo dashboard --demo
 * ordo dashboard --backend lettuce --redis redis://localhost:6379 --listen 127.0.0.1:7420
 * </pre>
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = {"Serves the operator dashboard: queues, consumer groups, partitions, consumers and dead letters.",
                "Actions (pause, resume, redrive, purge, cancel, unblock, create or delete a group) need the",
                "token: --token, else $" + DashboardCommand.TOKEN_ENVIRONMENT_VARIABLE
                        + ", else a fresh one printed once on stderr (or to --token-file).",
                "On loopback anyone who reaches it may look; on any other address reads need the",
                "token too, and it answers only to its own address and the --allow-host names."},
        footer = {"", "Examples:", "  ordo dashboard --demo",
                "  ordo dashboard --backend lettuce --redis redis://localhost:6379 --listen 127.0.0.1:7420",
                "  ordo dashboard --backend lettuce --redis redis://redis:6379 --listen 0.0.0.0:7420 --allow-host ordo.example.com --token-file /run/ordo/token"})
final class DashboardCommand implements Callable<Integer> {
    static final String TOKEN_ENVIRONMENT_VARIABLE = "ORDO_DASHBOARD_TOKEN";
    static final String DEFAULT_LISTEN = "127.0.0.1:7420";
    private static final Duration MIN_SAMPLE_EVERY = Duration.ofMillis(100);
    private static final Duration MAX_SAMPLE_EVERY = Duration.ofMinutes(1);
    private static final Pattern ALLOWED_HOST = Pattern.compile("[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+]");

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

    @Option(names = "--token-for-reads", arity = "0..1", paramLabel = "true|false",
            description = "Reads need the token too (default: on unless --listen is a loopback address).")
    Boolean tokenForReads;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "Write the token to FILE (readable by its owner only) instead of printing it.")
    Path tokenFile;

    @Option(names = "--allow-host", paramLabel = "NAME",
            description = "A host name the dashboard answers to, besides its own address and, on loopback, localhost (repeatable).")
    List<String> allowHosts = new ArrayList<>();

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
        boolean loopback = address.getAddress().isLoopbackAddress();
        boolean readsNeedToken = tokenForReads != null ? tokenForReads : !loopback;
        boolean needsToken = !readOnly || readsNeedToken;
        if (!needsToken && token != null && spec.commandLine().getParseResult().hasMatchedOption("--token")) {
            throw new ParameterException(spec.commandLine(), "--token and --read-only exclude each other (unless --token-for-reads)");
        }
        if (needsToken && token != null && token.length() < AccessGuard.MIN_TOKEN_LENGTH) {
            throw new InvalidInputException("--token", "must have at least " + AccessGuard.MIN_TOKEN_LENGTH
                    + " characters (or leave it out for a random one)");
        }
        for (String host : allowHosts) {
            if (!ALLOWED_HOST.matcher(host).matches()) {
                throw new InvalidInputException("--allow-host", "must be a host name or address without port, was '" + host + "'");
            }
        }
        List<QueueName> named = new ArrayList<>(queues.stream().map(QueueName::of).toList());
        if (demo) {
            named.add(DemoActivity.QUEUE);
        }
        boolean generated = needsToken && token == null;
        String dashboardToken = !needsToken ? null : generated ? AccessGuard.generateToken() : token;
        if (tokenFile != null) {
            if (dashboardToken == null) {
                throw new ParameterException(spec.commandLine(), "--token-file: this dashboard has no token (--read-only)");
            }
            writeTokenFile(dashboardToken);
        }
        AccessGuard guard = AccessGuard.create(dashboardToken, !readOnly, readsNeedToken, address.getAddress(), allowHosts);

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
            announce(running.server, generated && tokenFile == null ? dashboardToken : null, guard, loopback);
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

    /**
     * The address on stdout; the token, when generated and not written to a file, on stderr only, so
     * a log collector that keeps the command's stdout never sees it (docs/security.md).
     */
    private void announce(DashboardServer server, String generatedToken, AccessGuard guard, boolean loopback) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("dashboard: " + server.url());
        out.flush();
        PrintWriter err = err();
        if (generatedToken != null) {
            err.println("ordo: dashboard token (printed once, here on stderr; " + (readOnly ? "reads" : "actions")
                    + " need it): " + generatedToken);
            err.println("ordo: open with the token: " + server.url() + "#token=" + generatedToken);
        }
        if (tokenFile != null) {
            err.println("ordo: dashboard token written to " + tokenFile);
        }
        if (!loopback) {
            err.println("ordo: warning: the dashboard listens on " + listen + ", beyond this machine: whoever reaches it"
                    + (guard.tokenForReads() ? " and has the token" : "") + " sees every queue's tasks; it speaks plain HTTP,"
                    + " so put it behind TLS; it answers only to its address" + (allowHosts.isEmpty() ? "" : " and " + String.join(", ", allowHosts)));
        }
        err.printf("ordo: dashboard of %s%s%s%n", backend.describe(),
                readOnly ? ", read-only" : generatedToken == null ? ", actions with the given token" : "",
                guard.tokenForReads() ? ", reads need the token" : "");
        if (backend.backend() == Backend.INMEMORY && !demo) {
            err.println("ordo: note: the inmemory backend holds only what this process puts there; try --demo");
        }
        err.println("ordo: Ctrl-C stops it");
        err.flush();
    }

    private void writeTokenFile(String dashboardToken) {
        try {
            Files.deleteIfExists(tokenFile);
            try {
                Files.createFile(tokenFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(tokenFile);
            }
            Files.writeString(tokenFile, dashboardToken + System.lineSeparator());
        } catch (IOException e) {
            throw new InvalidInputException("--token-file", "cannot write " + tokenFile + ": " + e.getMessage());
        }
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
