package io.ordo.cli.doctor;

import io.ordo.ports.QueueUnavailableException;
import io.ordo.redis.EvictionPolicy;
import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisOptions;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a Redis deployment for what Ordo needs (docs/reliability.md, "Before going live"): the
 * version, the topology against the URI, the eviction policy, persistence, round-trip latency and
 * the user's rights to every command Ordo sends. Reads only, but for one transient key
 * ({@link AclProbe}); never the password in a message.
 */
public final class DeploymentDoctor {
    /** Ordo's scripts are a Redis Functions library: Redis 7.0 or later. */
    static final int[] MINIMUM_VERSION = {7, 0};
    static final int ROUND_TRIPS = 20;
    /** A median round trip above this makes every task noticeably slower (each costs a few). */
    static final Duration SLOW_ROUND_TRIP = Duration.ofMillis(5);

    private final RedisOptions options;
    private final RedisEndpoint endpoint;

    public DeploymentDoctor(RedisOptions options) {
        this.options = options;
        this.endpoint = options.endpoint();
    }

    /** Every finding, in the order printed; a server that cannot be reached or logged into at all throws. */
    public List<Finding> examine() {
        List<Finding> findings = new ArrayList<>();
        InetSocketAddress server = endpoint.sentinel() ? sentinelMaster(findings)
                : endpoint.cluster() ? endpoint.clusterSeeds().get(0)
                : InetSocketAddress.createUnresolved(endpoint.host(), endpoint.port());
        if (server == null) {
            return findings;
        }
        try (RedisConnection redis = connect(server.getHostString(), server.getPort(), true)) {
            Map<String, String> info = info(redis, findings);
            if (!info.isEmpty()) {
                version(info, findings);
                topology(redis, info, findings);
                eviction(info, findings);
                persistence(redis, info, findings);
            }
            latency(redis, findings);
            rights(redis, findings);
        } catch (JedisConnectionException lost) {
            throw new QueueUnavailableException("Redis at " + server.getHostString() + ":" + server.getPort()
                    + " stopped answering: " + firstLine(lost));
        }
        return findings;
    }

    private RedisConnection connect(String host, int port, boolean withCredentials) {
        String where = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        try {
            return RedisConnection.open(options, host, port, withCredentials);
        } catch (JedisAccessControlException refused) {
            throw new QueueUnavailableException("Redis at " + where + " refused the login: " + firstLine(refused));
        } catch (JedisException unreachable) {
            throw new QueueUnavailableException("Redis at " + where + " is unreachable: " + firstLine(unreachable));
        }
    }

    /** INFO's fields; none (and a finding) when this user may not read them. */
    private Map<String, String> info(RedisConnection redis, List<Finding> findings) {
        String text;
        try {
            text = redis.callText("INFO", "server", "memory", "persistence", "replication", "cluster");
        } catch (JedisDataException refused) {
            findings.add(Finding.warn("server facts", "this user may not run INFO (" + firstLine(refused)
                            + "): version, topology, eviction policy and persistence are not checked",
                    "run ordo doctor once with an administrator's URI as well (the worker's user needs no INFO)"));
            return Map.of();
        }
        Map<String, String> fields = new HashMap<>();
        text.lines().filter(line -> line.contains(":") && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
        });
        return fields;
    }

    private static void version(Map<String, String> info, List<Finding> findings) {
        String version = info.getOrDefault("redis_version", "unknown");
        int[] parts = Arrays.stream((version + ".0.0").split("\\.")).limit(2).mapToInt(DeploymentDoctor::number).toArray();
        boolean recentEnough = parts[0] > MINIMUM_VERSION[0] || parts[0] == MINIMUM_VERSION[0] && parts[1] >= MINIMUM_VERSION[1];
        if (recentEnough) {
            findings.add(Finding.ok("redis version", version));
        } else {
            findings.add(Finding.fail("redis version", version + ": Ordo's scripts are a Redis Functions library, which needs 7.0 or later",
                    "upgrade Redis to 7.0 or later"));
        }
    }

    private void topology(RedisConnection redis, Map<String, String> info, List<Finding> findings) {
        String mode = info.getOrDefault("redis_mode", "standalone");
        String role = info.getOrDefault("role", "master");
        String replicas = info.getOrDefault("connected_slaves", "0");
        if (role.equals("slave")) {
            findings.add(Finding.fail("topology", redis.address() + " is a replica (of " + info.getOrDefault("master_host", "?")
                    + "): every write fails", "point --redis at the master, or use redis-sentinel:// so the stores follow it"));
            return;
        }
        if (mode.equals("cluster") && !endpoint.cluster()) {
            findings.add(Finding.fail("topology", redis.address() + " is a cluster node, but the URI is not a cluster URI:"
                    + " a queue whose slot is on another node fails", "use redis-cluster://" + redis.address()
                    + " (docs/decisions/redis-cluster-uri.md)"));
            return;
        }
        if (!mode.equals("cluster") && endpoint.cluster()) {
            findings.add(Finding.fail("topology", redis.address() + " is not a cluster node (redis_mode " + mode + "), but the URI is redis-cluster://",
                    "use redis://" + redis.address() + ", or enable cluster mode on the servers"));
            return;
        }
        if (mode.equals("cluster")) {
            Map<String, String> cluster;
            try {
                cluster = fields(redis.callText("CLUSTER", "INFO"));
            } catch (JedisDataException refused) {
                // Ordo's cluster user may not run CLUSTER INFO, but may read the slot map its clients read
                try {
                    cluster = fromSlotMap(redis.call("CLUSTER", "SLOTS"));
                } catch (JedisDataException alsoRefused) {
                    findings.add(Finding.warn("topology", "cluster node; this user may read neither CLUSTER INFO nor CLUSTER SLOTS",
                            "run ordo doctor once with an administrator's URI as well"));
                    return;
                }
            }
            String state = cluster.getOrDefault("cluster_state", "unknown");
            String shape = cluster.getOrDefault("cluster_size", "?") + " masters serving slots"
                    + (cluster.containsKey("cluster_known_nodes") ? ", " + cluster.get("cluster_known_nodes") + " nodes" : "");
            if (state.equals("ok")) {
                findings.add(Finding.ok("topology", "cluster, state ok, " + shape));
            } else {
                findings.add(Finding.fail("topology", "cluster state " + state + " (" + shape + ", "
                        + cluster.getOrDefault("cluster_slots_assigned", "?") + " of 16384 slots assigned): commands fail",
                        "assign every slot to a master that is up (redis-cli --cluster fix " + redis.address() + ")"));
            }
            return;
        }
        String where = endpoint.sentinel() ? "master (through Sentinel) at " : "standalone master at ";
        findings.add(Finding.ok("topology", where + redis.address() + ", " + replicas + " replica" + (replicas.equals("1") ? "" : "s")
                + (replicas.equals("0") ? " (a lost disk or host loses the tasks; add a replica and Sentinel for failover)" : "")));
    }

    private static void eviction(Map<String, String> info, List<Finding> findings) {
        String policy = info.get("maxmemory_policy");
        if (policy == null) {
            findings.add(Finding.warn("eviction", "INFO shows no maxmemory_policy", "check maxmemory-policy is " + EvictionPolicy.SAFE));
        } else if (EvictionPolicy.losesTasks(policy)) {
            findings.add(Finding.fail("eviction", EvictionPolicy.problem(policy), EvictionPolicy.fix()));
        } else {
            String limit = info.getOrDefault("maxmemory_human", info.getOrDefault("maxmemory", "0"));
            findings.add(Finding.ok("eviction", policy + (limit.equals("0") || limit.equals("0B") ? " (no maxmemory: bounded by the machine)"
                    : ", maxmemory " + limit + ": a full Redis refuses publishes, loses nothing")));
        }
    }

    private static void persistence(RedisConnection redis, Map<String, String> info, List<Finding> findings) {
        boolean appendOnly = "1".equals(info.get("aof_enabled"));
        Optional<String> save = config(redis, "save");
        Optional<String> fsync = config(redis, "appendfsync");
        if (appendOnly) {
            String policy = fsync.orElse("not readable by this user");
            if (fsync.isPresent() && fsync.get().equals("no")) {
                findings.add(Finding.warn("persistence", "append-only file on, appendfsync no: the OS writes it when it likes;"
                        + " a crash of the machine loses up to about 30 s of tasks", "CONFIG SET appendfsync everysec"));
            } else {
                findings.add(Finding.ok("persistence", "append-only file on, appendfsync " + policy
                        + save.filter(s -> !s.isBlank()).map(s -> ", RDB snapshots (save " + s + ")").orElse("")));
            }
        } else if (save.isEmpty()) {
            findings.add(Finding.warn("persistence", "append-only file off, snapshot schedule not readable (this user may not run CONFIG GET):"
                    + " a restart may lose every task since the last snapshot, or all of them",
                    "CONFIG SET appendonly yes and appendfsync everysec (docs/reliability.md)"));
        } else if (save.get().isBlank()) {
            findings.add(Finding.warn("persistence", "off (no append-only file, no RDB snapshots): a restart loses every task",
                    "CONFIG SET appendonly yes, CONFIG SET appendfsync everysec, and the same in redis.conf (docs/reliability.md)"));
        } else {
            findings.add(Finding.warn("persistence", "RDB snapshots only (save " + save.get() + "): a restart loses every task"
                    + " published or acknowledged since the last snapshot", "CONFIG SET appendonly yes and appendfsync everysec (docs/reliability.md)"));
        }
    }

    private static Optional<String> config(RedisConnection redis, String parameter) {
        try {
            Object reply = redis.call("CONFIG", "GET", parameter);
            if (reply instanceof List<?> pair && pair.size() == 2) {
                return Optional.of(String.valueOf(pair.get(1)));
            }
            if (reply instanceof Map<?, ?> map && map.containsKey(parameter)) {
                return Optional.of(String.valueOf(map.get(parameter)));
            }
            return Optional.empty();
        } catch (JedisDataException refused) {
            return Optional.empty();
        }
    }

    private static void latency(RedisConnection redis, List<Finding> findings) {
        long[] nanos = new long[ROUND_TRIPS];
        for (int i = 0; i < ROUND_TRIPS; i++) {
            long started = System.nanoTime();
            try {
                redis.call("PING");
            } catch (JedisDataException refused) {
                // a user without PING (Ordo needs none) gets an error reply: a round trip all the same
            }
            nanos[i] = System.nanoTime() - started;
        }
        Arrays.sort(nanos);
        double median = nanos[ROUND_TRIPS / 2] / 1e6;
        double worst = nanos[ROUND_TRIPS - 1] / 1e6;
        String found = String.format(Locale.ROOT, "round trip median %.2f ms, worst %.2f ms over %d", median, worst, ROUND_TRIPS);
        if (nanos[ROUND_TRIPS / 2] > SLOW_ROUND_TRIP.toNanos()) {
            findings.add(Finding.warn("latency", found + ": every task costs a few round trips",
                    "run the workers near Redis (same zone and network); LATENCY DOCTOR on the server tells whether Redis itself is slow"));
        } else {
            findings.add(Finding.ok("latency", found));
        }
    }

    private void rights(RedisConnection redis, List<Finding> findings) {
        String user = endpoint.username().orElse("default");
        List<String> refused = new ArrayList<>();
        List<String> keysRefused = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<String> needed = AclProbe.needed(endpoint.cluster(), endpoint.waitReplicas() > 0);
        for (String command : needed) {
            List<String> words = AclProbe.words(command);
            try {
                redis.call(words.toArray(String[]::new));
                if (command.equals("rpush")) {
                    redis.call("DEL", AclProbe.KEY);
                }
            } catch (JedisDataException reply) {
                String message = String.valueOf(reply.getMessage());
                if (message.startsWith("NOPERM") && message.contains("key")) {
                    keysRefused.add(command);
                } else if (message.startsWith("NOPERM")) {
                    refused.add(command);
                } else if (message.toLowerCase(Locale.ROOT).startsWith("err unknown command")
                        || message.toLowerCase(Locale.ROOT).startsWith("err unknown subcommand")) {
                    unknown.add(command);
                }
                // any other error reply (not a number, no such function, MOVED) came after the rights were checked
            }
        }
        if (refused.isEmpty() && keysRefused.isEmpty() && unknown.isEmpty()) {
            findings.add(Finding.ok("acl", "user '" + user + "' may run all " + needed.size() + " commands Ordo sends, on ordo:* keys"));
            return;
        }
        if (!refused.isEmpty()) {
            findings.add(Finding.fail("acl", "user '" + user + "' may not run " + String.join(", ", refused),
                    "ACL SETUSER " + user + " " + String.join(" ", refused.stream().map(command -> "+" + command).toList())
                            + " (the full rule list: docs/security.md)"));
        }
        if (!keysRefused.isEmpty()) {
            findings.add(Finding.fail("acl", "user '" + user + "' may not use the keys ordo:* (" + String.join(", ", keysRefused) + ")",
                    "ACL SETUSER " + user + " ~ordo:* (docs/security.md)"));
        }
        if (!unknown.isEmpty()) {
            findings.add(Finding.fail("commands", "this Redis does not know " + String.join(", ", unknown),
                    "upgrade Redis to 7.0 or later"));
        }
    }

    /** Asks the sentinels for the master; a finding about them either way; null when there is no master to check. */
    private InetSocketAddress sentinelMaster(List<Finding> findings) {
        String master = endpoint.sentinelMaster().orElseThrow();
        List<String> problems = new ArrayList<>();
        for (InetSocketAddress sentinel : endpoint.sentinels()) {
            try (RedisConnection connection = connect(sentinel.getHostString(), sentinel.getPort(), false)) {
                Object address = connection.call("SENTINEL", "get-master-addr-by-name", master);
                if (!(address instanceof List<?> hostAndPort) || hostAndPort.size() != 2) {
                    findings.add(Finding.fail("topology", "sentinel " + connection.address() + " does not know a master '" + master + "'",
                            "check the master name in the URI (?master=…) against the sentinels' configuration"));
                    return null;
                }
                String quorum;
                try {
                    quorum = connection.callText("SENTINEL", "ckquorum", master);
                } catch (JedisDataException noQuorum) {
                    findings.add(Finding.fail("sentinel", firstLine(noQuorum), "run at least three sentinels, a majority of them reachable"));
                    quorum = null;
                }
                if (quorum != null) {
                    findings.add(Finding.ok("sentinel", "master '" + master + "' at " + hostAndPort.get(0) + ":" + hostAndPort.get(1)
                            + (problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")") + ", " + quorum));
                }
                return InetSocketAddress.createUnresolved(String.valueOf(hostAndPort.get(0)), number(String.valueOf(hostAndPort.get(1))));
            } catch (QueueUnavailableException | JedisConnectionException unreachable) {
                problems.add("sentinel " + sentinel.getHostString() + ":" + sentinel.getPort() + " unreachable");
            }
        }
        throw new QueueUnavailableException("no sentinel of " + endpoint.address() + " answered");
    }

    /** What CLUSTER INFO would say of state, size and slots, from CLUSTER SLOTS: ranges of slots and their master. */
    private static Map<String, String> fromSlotMap(Object slots) {
        long assigned = 0;
        Set<String> masters = new HashSet<>();
        for (Object range : slots instanceof List<?> list ? list : List.of()) {
            if (range instanceof List<?> parts && parts.size() >= 3 && parts.get(2) instanceof List<?> master) {
                assigned += ((Number) parts.get(1)).longValue() - ((Number) parts.get(0)).longValue() + 1;
                masters.add(master.get(0) + ":" + master.get(1));
            }
        }
        return Map.of("cluster_state", assigned == 16384 ? "ok" : "fail", "cluster_size", Integer.toString(masters.size()),
                "cluster_slots_assigned", Long.toString(assigned));
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> fields = new HashMap<>();
        text.lines().filter(line -> line.contains(":")).forEach(line ->
                fields.put(line.substring(0, line.indexOf(':')), line.substring(line.indexOf(':') + 1).strip()));
        return fields;
    }

    private static int number(String text) {
        try {
            return Integer.parseInt(text.replaceAll("[^0-9].*$", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String firstLine(Exception problem) {
        String message = problem.getMessage() == null ? problem.getClass().getSimpleName() : problem.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
