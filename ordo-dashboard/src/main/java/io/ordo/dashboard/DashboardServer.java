package io.ordo.dashboard;

import io.ordo.domain.QueueName;
import io.ordo.ports.TaskStoreFactory;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * The dashboard on an embedded Jetty of its own (docs/decisions/dashboard-server.md): the
 * {@link DashboardHandler} at the root of one port.
 *
 * <p>Jetty reads requests without holding a thread, closes connections idle for
 * {@link #IDLE_TIMEOUT} and takes at most {@link #MAX_CONNECTIONS}, so slow or half-open clients
 * cost memory, not service.
 */
public final class DashboardServer implements AutoCloseable {
    /** A connection that sends or takes nothing for this long is closed. */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(10);
    /** Open connections at most; more wait in the kernel's backlog until one closes. */
    static final int MAX_CONNECTIONS = 4096;

    private final Server server;
    private final ServerConnector connector;
    private final DashboardHandler dashboard;

    private DashboardServer(Server server, ServerConnector connector, DashboardHandler dashboard) {
        this.server = server;
        this.connector = connector;
        this.dashboard = dashboard;
    }

    /**
     * Serves the dashboard of the queues in {@code stores} at {@code address} (port 0: any free port),
     * reading throughput every {@code sampleEvery}; {@code named} queues show even while empty.
     */
    public static DashboardServer start(TaskStoreFactory stores, String backend, InetSocketAddress address,
                                        AccessGuard guard, List<QueueName> named, Duration sampleEvery) {
        DashboardHandler handler = DashboardHandler.create(stores, backend, guard, named, sampleEvery);
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("ordo-dashboard-http");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(16 * 1024);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(address.getAddress().getHostAddress());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        server.addConnector(connector);
        server.addBean(new ConnectionLimit(MAX_CONNECTIONS, server));
        server.setHandler(handler);
        DashboardServer dashboard = new DashboardServer(server, connector, handler);
        try {
            server.start();
        } catch (Exception e) {
            dashboard.close();
            Throwable root = e; // Jetty wraps the operating system's reason (BindException: Address already in use)
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new UncheckedIOException("cannot serve the dashboard on " + address.getHostString() + ":"
                    + address.getPort() + ": " + root.getMessage(), new IOException(root.getMessage(), e));
        }
        return dashboard;
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** {@code http://host:port/}, with the host as the operator would type it. */
    public String url() {
        InetAddress bound;
        try {
            bound = InetAddress.getByName(connector.getHost());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String host = bound.isAnyLocalAddress() ? "127.0.0.1"
                : bound instanceof Inet6Address ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
        return "http://" + host + ":" + port() + "/";
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping is best effort: the process is ending or the test is done
        }
        dashboard.close();
    }
}
