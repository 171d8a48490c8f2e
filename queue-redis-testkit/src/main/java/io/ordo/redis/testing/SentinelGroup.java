package io.ordo.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A private Redis Sentinel deployment on loopback, made the way an operator makes one: a master, one
 * replica or more ({@code --replicaof}) and three sentinels ({@code redis-server sentinel.conf --sentinel}, quorum 2)
 * that watch it under {@value #MASTER_NAME}. The sentinels call the master down after
 * {@value #DOWN_AFTER_MILLIS} ms without an answer, so a killed master is replaced within a few seconds.
 * Never the shared Redis on 6379.
 */
public final class SentinelGroup implements AutoCloseable {
    public static final String MASTER_NAME = "ordo-master";
    public static final int SENTINELS = 3;
    private static final int QUORUM = 2;
    private static final long DOWN_AFTER_MILLIS = 1_000;
    private static final long READY_TIMEOUT_MILLIS = 20_000;

    private final List<RedisServer> servers = new ArrayList<>();
    private final List<Process> sentinels = new ArrayList<>();
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final Path directory;

    private SentinelGroup(Path directory) {
        this.directory = directory;
    }

    /** Starts master, one replica and sentinels, and waits until the replica is in sync and every sentinel knows all. */
    public static SentinelGroup start() {
        return start(1);
    }

    /** {@link #start()} with this many replicas. */
    public static SentinelGroup start(int replicas) {
        SentinelGroup group;
        try {
            group = new SentinelGroup(Files.createTempDirectory("ordo-sentinel-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            // a replica (re)joining is synced at once, not after the default 5 s gathering of more replicas
            List<String> syncAtOnce = List.of("--repl-diskless-sync-delay", "0");
            RedisServer master = RedisServer.start(RedisServer::freePort, syncAtOnce);
            group.servers.add(master);
            List<String> replicaArguments = new ArrayList<>(syncAtOnce);
            replicaArguments.addAll(List.of("--replicaof", master.host(), Integer.toString(master.port())));
            for (int i = 0; i < replicas; i++) {
                group.servers.add(RedisServer.start(RedisServer::freePort, replicaArguments));
            }
            for (int i = 0; i < SENTINELS; i++) {
                group.startSentinel(i, master.port());
            }
            group.awaitReady(master);
            return group;
        } catch (RuntimeException e) {
            group.close();
            throw e;
        }
    }

    /** {@code redis-sentinel://127.0.0.1:<p1>,127.0.0.1:<p2>,127.0.0.1:<p3>?master=ordo-master}. */
    public String uri() {
        return "redis-sentinel://" + sentinelPorts.stream().map(port -> "127.0.0.1:" + port)
                .collect(Collectors.joining(",")) + "?master=" + MASTER_NAME;
    }

    /** The server the sentinels name as master now. */
    public RedisServer master() {
        int port = masterPortSeenBy(sentinelPorts.get(0));
        return servers.stream().filter(server -> server.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("no server on port " + port));
    }


    /**
     * Waits until every sentinel names a master other than {@code old} and that server answers as a master;
     * how long that took from {@code sinceNanos}, in milliseconds.
     */
    public long awaitNewMaster(RedisServer old, long sinceNanos) {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            boolean moved = sentinelPorts.stream().allMatch(port -> {
                try {
                    return masterPortSeenBy(port) != old.port();
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
            if (moved && role(master()).equals("master")) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
            }
            pause(20);
        }
        throw new IllegalStateException("the sentinels named no new master within " + READY_TIMEOUT_MILLIS
                + " ms: " + log());
    }

    /**
     * Asks a sentinel for a failover (SENTINEL FAILOVER), as an operator does before maintenance: the replica
     * is promoted and the old master, still running, is turned into its replica.
     */
    public void failoverByCommand() {
        RedisServer.command(sentinelPorts.get(0), "SENTINEL", "FAILOVER", MASTER_NAME);
    }

    /** Waits until {@code server} reports itself a replica again (the sentinels reconfigure a demoted master). */
    public void awaitReplica(RedisServer server) {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
        while (!role(server).equals("slave")) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("port " + server.port() + " did not become a replica: " + log());
            }
            pause(20);
        }
    }

    /** What each server says its role is, and the sentinels' logs' ends: for a failure message. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        for (RedisServer server : servers) {
            text.append(server.port()).append(": ").append(role(server)).append("; ");
        }
        return text + log();
    }

    @Override
    public void close() {
        for (Process sentinel : sentinels) {
            sentinel.destroyForcibly();
        }
        for (Process sentinel : sentinels) {
            try {
                sentinel.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        servers.forEach(RedisServer::close);
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    private void startSentinel(int index, int masterPort) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = RedisServer.freePort();
            Path config = directory.resolve("sentinel-" + index + ".conf");
            String text = String.join("\n",
                    "port " + port,
                    "bind 127.0.0.1",
                    "daemonize no",
                    "dir " + directory,
                    "logfile sentinel-" + index + ".log",
                    "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " " + QUORUM,
                    "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER_MILLIS,
                    "sentinel failover-timeout " + MASTER_NAME + " 10000",
                    "sentinel parallel-syncs " + MASTER_NAME + " 1",
                    "");
            Process process;
            try {
                Files.writeString(config, text); // the sentinel rewrites it with what it learns
                process = new ProcessBuilder(RedisServer.executable(), config.toString(), "--sentinel")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "redis-sentinel-" + port));
            long deadline = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < deadline && process.isAlive()) {
                try {
                    if ("PONG".equals(RedisServer.command(port, "PING"))) {
                        sentinels.add(process);
                        sentinelPorts.add(port);
                        return;
                    }
                } catch (RuntimeException notYet) {
                    // not listening yet
                }
                pause(20);
            }
            process.destroyForcibly();
            last = new IllegalStateException("sentinel on port " + port + " did not start: " + log());
        }
        throw last;
    }

    /** The replicas in sync, and every sentinel aware of the replicas and of the other sentinels. */
    private void awaitReady(RedisServer master) {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            try {
                // the master streams to a new replica only after its first acknowledgement: a write that one
                // replica confirms (WAIT) shows the stream flows
                String replicas = Integer.toString(servers.size() - 1);
                boolean synced = Long.valueOf(servers.size() - 1).equals(master.commandsOnOneConnection(List.of(
                        List.of("SET", "ordo-sentinel-group-ready", "1"), List.of("WAIT", replicas, "100"))).get(1));
                boolean known = sentinelPorts.stream().allMatch(port ->
                        ((List<?>) RedisServer.command(port, "SENTINEL", "REPLICAS", MASTER_NAME)).size()
                                == servers.size() - 1
                                && ((List<?>) RedisServer.command(port, "SENTINEL", "SENTINELS", MASTER_NAME)).size()
                                == SENTINELS - 1
                                && masterPortSeenBy(port) == master.port());
                if (synced && known) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // still starting
            }
            pause(20);
        }
        throw new IllegalStateException("the sentinel group did not come together within " + READY_TIMEOUT_MILLIS
                + " ms: " + log());
    }

    private static int masterPortSeenBy(int sentinelPort) {
        List<?> address = (List<?>) RedisServer.command(sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
                MASTER_NAME);
        return Integer.parseInt((String) address.get(1));
    }

    private static String role(RedisServer server) {
        try {
            return (String) ((List<?>) server.command("ROLE")).get(0);
        } catch (RuntimeException unreachable) {
            return "unreachable";
        }
    }

    private String log() {
        StringBuilder log = new StringBuilder();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                log.append("\n--- ").append(file.getFileName()).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            }
        } catch (IOException e) {
            log.append("(logs unreadable: ").append(e).append(')');
        }
        return log.toString();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
