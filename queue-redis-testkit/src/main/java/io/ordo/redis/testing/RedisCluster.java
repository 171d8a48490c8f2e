package io.ordo.redis.testing;

import io.ordo.redis.RedisAcl;
import io.ordo.redis.RedisOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A private Redis Cluster of three masters (no replicas) on loopback, made the way an operator makes
 * one: {@code redis-server --cluster-enabled yes} per node, then {@code redis-cli --cluster create}.
 * Each node's cluster bus listens on its port + 10000, so ports are chosen at most
 * {@value #HIGHEST_PORT} with both free, and never the shared Redis's 6379 or its bus port.
 */
public final class RedisCluster implements RedisDeployment {
    public static final int MASTERS = 3;
    public static final int SLOTS = 16384;
    private static final int LOWEST_PORT = 20_000;
    private static final int HIGHEST_PORT = 55_000;
    private static final int BUS_PORT_OFFSET = 10_000;
    private static final long READY_TIMEOUT_MILLIS = 20_000;
    private static final String USER = "ordo-cluster";
    private static final String PASSWORD = "cluster-secret";

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts the nodes, joins them into one cluster with every slot served, and waits until all agree. */
    public static RedisCluster start() {
        List<RedisServer> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < MASTERS; i++) {
                nodes.add(RedisServer.start(RedisCluster::freePortWithFreeBusPort, List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")));
            }
            RedisCluster cluster = new RedisCluster(nodes);
            cluster.create();
            cluster.awaitReady();
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisServer::close);
            throw e;
        }
    }

    public List<RedisServer> nodes() {
        return nodes;
    }

    /** {@code redis-cluster://127.0.0.1:<port>,...}: every node as a seed. */
    public String uri() {
        return "redis-cluster://" + seeds();
    }

    /** The cluster URI with an ACL user's credentials. */
    public String uri(String user, String password) {
        return "redis-cluster://" + user + ":" + password + "@" + seeds();
    }

    private String seeds() {
        return nodes.stream().map(node -> node.host() + ":" + node.port()).collect(Collectors.joining(","));
    }

    /** The cluster slot of a key, as the server computes it (hash tags included). */
    public int slotOf(String key) {
        return Math.toIntExact((Long) nodes.get(0).command("CLUSTER", "KEYSLOT", key));
    }

    /** The node that serves a slot now, by the slot map of the first node. */
    public RedisServer owner(int slot) {
        for (Object range : (List<?>) nodes.get(0).command("CLUSTER", "SLOTS")) {
            List<?> fields = (List<?>) range;
            if ((Long) fields.get(0) <= slot && slot <= (Long) fields.get(1)) {
                long port = (Long) ((List<?>) fields.get(2)).get(1);
                return nodes.stream().filter(node -> node.port() == port).findFirst().orElseThrow();
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /**
     * Moves a slot and its keys to another node the way {@code redis-cli --cluster reshard} does
     * (IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE), so clients that cached the old owner get MOVED.
     */
    public void moveSlot(int slot, RedisServer target) {
        RedisServer source = owner(slot);
        if (source == target) {
            return;
        }
        String sourceId = (String) source.command("CLUSTER", "MYID");
        String targetId = (String) target.command("CLUSTER", "MYID");
        target.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", sourceId);
        source.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", targetId);
        while (true) {
            List<?> keys = (List<?>) source.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100");
            if (keys.isEmpty()) {
                break;
            }
            List<String> migrate = new ArrayList<>(List.of("MIGRATE", target.host(), Integer.toString(target.port()),
                    "", "0", "5000", "KEYS"));
            keys.forEach(key -> migrate.add((String) key));
            source.command(migrate.toArray(String[]::new));
        }
        for (RedisServer node : nodes) {
            node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId);
        }
    }

    /** Runs {@code ACL SETUSER user rules...} on every node: a cluster does not share its users. */
    public void setUser(String user, List<String> rules) {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user));
        command.addAll(rules);
        nodes.forEach(node -> node.command(command.toArray(String[]::new)));
    }

    @Override
    public RedisOptions leastPrivilegeUser() {
        List<String> rules = new ArrayList<>(List.of("on", ">" + PASSWORD));
        rules.addAll(RedisAcl.rules(true));
        setUser(USER, rules);
        return RedisOptions.create(uri(USER, PASSWORD));
    }

    @Override
    public List<Object> aclDenials() {
        List<Object> denials = new ArrayList<>();
        nodes.forEach(node -> denials.addAll((List<?>) node.command("ACL", "LOG")));
        return denials;
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }

    private void create() {
        List<String> command = new ArrayList<>(List.of(redisCli(), "--cluster", "create"));
        nodes.forEach(node -> command.add(node.host() + ":" + node.port()));
        command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-cli --cluster create failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the cluster", e);
        }
    }

    /** Every node reports the cluster ok and knows every other node: clients then see one slot map. */
    private void awaitReady() {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (nodes.stream().allMatch(this::agrees)) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the cluster", e);
            }
        }
        throw new IllegalStateException("the cluster did not become ready within " + READY_TIMEOUT_MILLIS + " ms: "
                + nodes.get(0).command("CLUSTER", "INFO"));
    }

    private boolean agrees(RedisServer node) {
        String info = (String) node.command("CLUSTER", "INFO");
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + MASTERS)
                && info.contains("cluster_slots_ok:" + SLOTS);
    }

    /** redis-cli from the same place as redis-server, else from the PATH. */
    private static String redisCli() {
        File sibling = new File(new File(RedisServer.executable()).getParentFile(), "redis-cli");
        return sibling.canExecute() ? sibling.getPath() : "redis-cli";
    }

    private static int freePortWithFreeBusPort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT + 1);
            if (isFree(port) && isFree(port + BUS_PORT_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port below " + HIGHEST_PORT + " with a free bus port");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
