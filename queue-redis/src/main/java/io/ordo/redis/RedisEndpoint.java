package io.ordo.redis;

import io.ordo.domain.InvalidInputException;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a Redis server is and how to log in, from a URI:
 * {@code redis://[user[:password]@]host[:port][/database]}, or {@code rediss://} for TLS.
 * A Redis Cluster is {@code redis-cluster://[user[:password]@]host[:port][,host[:port]...]} (or
 * {@code rediss-cluster://} for TLS): any reachable nodes as seeds, the client finds the rest
 * (docs/scaling.md). A master watched by Redis Sentinel is
 * {@code redis-sentinel://[user[:password]@]host[:port][,host[:port]...][/database]?master=NAME}: the sentinels
 * (default port 26379) tell the client where the master is now (docs/decisions/redis-sentinel-uri.md).
 * Every form takes {@code ?wait=N&waitTimeout=DURATION}: a publish is confirmed only once N replicas have it
 * (docs/reliability.md). The password never appears in {@link #toString()}.
 */
public final class RedisEndpoint {
    public static final int DEFAULT_PORT = 6379;
    private static final int MAX_PORT = 65_535;
    private static final String CLUSTER_SCHEME = "redis-cluster";
    private static final String TLS_CLUSTER_SCHEME = "rediss-cluster";
    private static final String SENTINEL_SCHEME = "redis-sentinel";
    private static final String TLS_SENTINEL_SCHEME = "rediss-sentinel";
    public static final int DEFAULT_SENTINEL_PORT = 26379;
    /** How long a publish waits for its replicas when the URI names {@code wait} but no {@code waitTimeout}. */
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(1);
    static final int MAX_WAIT_REPLICAS = 100;
    private static final Duration MAX_WAIT_TIMEOUT = Duration.ofMinutes(1);

    private final String host;
    private final int port;
    private final boolean tls;
    private final String username;
    private final String password;
    private final int database;
    /** Empty for a single server; the seed nodes of a cluster. */
    private final List<InetSocketAddress> clusterSeeds;
    /** Empty unless the master is found through Redis Sentinel: the sentinels to ask. */
    private final List<InetSocketAddress> sentinels;
    /** The name the sentinels monitor the master under; null without Sentinel. */
    private final String sentinelMaster;
    /** Replicas that must acknowledge a publish (WAIT), 0 for none; and how long to wait for them. */
    private final int waitReplicas;
    private final Duration waitTimeout;

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database) {
        this(host, port, tls, username, password, database, List.of());
    }

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database,
                          List<InetSocketAddress> clusterSeeds) {
        this(host, port, tls, username, password, database, clusterSeeds, List.of(), null, 0, DEFAULT_WAIT_TIMEOUT);
    }

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database,
                          List<InetSocketAddress> clusterSeeds, List<InetSocketAddress> sentinels,
                          String sentinelMaster, int waitReplicas, Duration waitTimeout) {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.username = username;
        this.password = password;
        this.database = database;
        this.clusterSeeds = List.copyOf(clusterSeeds);
        this.sentinels = List.copyOf(sentinels);
        this.sentinelMaster = sentinelMaster;
        this.waitReplicas = waitReplicas;
        this.waitTimeout = waitTimeout;
    }

    /**
     * Parses a {@code redis://}, {@code rediss://}, {@code redis-cluster://}, {@code rediss-cluster://} or
     * {@code redis-sentinel://} URI; the message of a bad one says what is wrong.
     */
    public static RedisEndpoint parse(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new InvalidInputException("redisUri", "must not be empty");
        }
        String trimmed = uri.trim();
        // a '?' or '#' inside the password is not the start of the query: look after the user info only
        int queryStart = trimmed.indexOf('?', trimmed.lastIndexOf('@') + 1);
        String withoutQuery = queryStart < 0 ? trimmed : trimmed.substring(0, queryStart);
        Map<String, String> query = query(queryStart < 0 ? "" : trimmed.substring(queryStart + 1), trimmed);
        String scheme = trimmed.replaceFirst("://.*", "").toLowerCase(Locale.ROOT);
        RedisEndpoint endpoint;
        if (scheme.equals(CLUSTER_SCHEME) || scheme.equals(TLS_CLUSTER_SCHEME)) {
            endpoint = parseCluster(withoutQuery, scheme.equals(TLS_CLUSTER_SCHEME));
        } else if (scheme.equals(SENTINEL_SCHEME)) {
            endpoint = parseSentinel(withoutQuery, query.remove("master"), trimmed);
        } else if (scheme.equals(TLS_SENTINEL_SCHEME)) {
            throw new InvalidInputException("redisUri", "TLS through Sentinel (rediss-sentinel://) is not supported;"
                    + " use redis-sentinel:// on a trusted network, or rediss:// to the master, was " + redact(trimmed));
        } else {
            endpoint = parseServer(withoutQuery);
        }
        if (query.containsKey("master")) {
            throw new InvalidInputException("redisUri", "master= only applies to redis-sentinel://, was "
                    + redact(trimmed));
        }
        return endpoint.withQuery(query, trimmed);
    }

    /** The sentinels are read like cluster seeds (default port 26379); the master's name is required. */
    private static RedisEndpoint parseSentinel(String uri, String master, String original) {
        if (master == null || master.isBlank()) {
            throw new InvalidInputException("redisUri", "a redis-sentinel:// URI needs ?master=NAME, the name the"
                    + " sentinels monitor the master under, was " + redact(original));
        }
        String rest = uri.substring(uri.indexOf("://") + 3);
        int pathStart = rest.indexOf('/');
        String authority = pathStart < 0 ? rest : rest.substring(0, pathStart);
        String path = pathStart < 0 ? "" : rest.substring(pathStart);
        List<RedisEndpoint> nodes = parseNodes(authority, false, DEFAULT_SENTINEL_PORT, path, "sentinel", original);
        RedisEndpoint first = nodes.get(0);
        return new RedisEndpoint(first.host, first.port, false, first.username, first.password, first.database,
                List.of(), addresses(nodes), master, 0, DEFAULT_WAIT_TIMEOUT);
    }

    private static Map<String, String> query(String query, String uri) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            if (parameters.put(name, value) != null) {
                throw new InvalidInputException("redisUri", "names " + name + "= twice, was " + redact(uri));
            }
        }
        return parameters;
    }

    /** Applies {@code wait} and {@code waitTimeout}; anything else left in the query is an error. */
    private RedisEndpoint withQuery(Map<String, String> query, String uri) {
        String replicas = query.remove("wait");
        String timeout = query.remove("waitTimeout");
        if (!query.isEmpty()) {
            throw new InvalidInputException("redisUri", "has unknown parameter " + query.keySet().iterator().next()
                    + "= (known: master, wait, waitTimeout), was " + redact(uri));
        }
        if (replicas == null && timeout == null) {
            return this;
        }
        int waitFor = 0;
        if (replicas != null) {
            try {
                waitFor = Integer.parseInt(replicas);
            } catch (NumberFormatException e) {
                waitFor = -1;
            }
            if (waitFor < 0 || waitFor > MAX_WAIT_REPLICAS) {
                throw new InvalidInputException("redisUri", "wait= must be a number of replicas from 0 to "
                        + MAX_WAIT_REPLICAS + ", was " + redact(uri));
            }
        }
        Duration waitTime = timeout == null ? DEFAULT_WAIT_TIMEOUT : duration(timeout, uri);
        if (waitFor > 0 && cluster()) {
            throw new InvalidInputException("redisUri", "wait= is not supported on a Redis Cluster: WAIT would not"
                    + " reach the node that holds the queue, was " + redact(uri));
        }
        return withPublishWait(waitFor, waitTime);
    }

    /** This endpoint with publishes confirmed by {@code replicas} replicas within {@code timeout} (0: not waited for). */
    RedisEndpoint withPublishWait(int replicas, Duration timeout) {
        if (replicas > 0 && cluster()) {
            throw new InvalidInputException("publishWaitReplicas", "is not supported on a Redis Cluster"
                    + " (redis-cluster://): WAIT"
                    + " would not reach the node that holds the queue");
        }
        return new RedisEndpoint(host, port, tls, username, password, database, clusterSeeds, sentinels,
                sentinelMaster, replicas, timeout);
    }

    /** {@code 500ms}, {@code 2s} or {@code 1m}; positive and at most a minute. */
    private static Duration duration(String text, String uri) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m)").matcher(text);
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            Duration value = switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
            if (!value.isZero() && value.compareTo(MAX_WAIT_TIMEOUT) <= 0) {
                return value;
            }
        }
        throw new InvalidInputException("redisUri", "waitTimeout= must be a duration like 500ms, 2s or 1m, above"
                + " zero and at most a minute, was " + redact(uri));
    }

    /** Each seed is read as a one-server URI with the cluster's user and TLS, so both forms parse alike. */
    private static RedisEndpoint parseCluster(String uri, boolean tls) {
        String rest = uri.substring(uri.indexOf("://") + 3);
        int pathStart = rest.indexOf('/');
        String authority = pathStart < 0 ? rest : rest.substring(0, pathStart);
        String path = pathStart < 0 ? "" : rest.substring(pathStart);
        if (!path.isEmpty() && !path.equals("/") && !path.equals("/0")) {
            throw new InvalidInputException("redisUri", "a cluster has only database 0, was " + redact(uri));
        }
        List<RedisEndpoint> seeds = parseNodes(authority, tls, DEFAULT_PORT, "", "node", uri);
        RedisEndpoint first = seeds.get(0);
        return new RedisEndpoint(first.host, first.port, tls, first.username, first.password, 0, addresses(seeds));
    }

    /**
     * The comma-separated nodes of a cluster's or the sentinels' authority, each read as a one-server URI
     * with the shared user, TLS and {@code path}, so every form parses alike.
     */
    private static List<RedisEndpoint> parseNodes(String authority, boolean tls, int defaultPort, String path,
                                                  String noun, String original) {
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
        List<RedisEndpoint> nodes = new ArrayList<>();
        for (String node : authority.substring(at + 1).split(",", -1)) {
            if (node.isBlank()) {
                throw new InvalidInputException("redisUri", "needs host[:port] for every " + noun + ", was "
                        + redact(original));
            }
            String address = node.trim();
            boolean hasPort = address.startsWith("[") ? address.contains("]:") : address.contains(":");
            // parseServer itself falls back to DEFAULT_PORT
            String port = hasPort || defaultPort == DEFAULT_PORT ? "" : ":" + defaultPort;
            nodes.add(parseServer((tls ? "rediss://" : "redis://") + userInfo + address + port + path));
        }
        return nodes;
    }

    private static List<InetSocketAddress> addresses(List<RedisEndpoint> nodes) {
        return nodes.stream().map(node -> InetSocketAddress.createUnresolved(node.host(), node.port())).toList();
    }

    private static RedisEndpoint parseServer(String uri) {
        URI parsed;
        try {
            parsed = new URI(uri.trim());
        } catch (URISyntaxException e) {
            // the exception's message and input hold the whole URI, password included: neither is kept
            throw new InvalidInputException("redisUri", "is not a URI (" + e.getReason() + "), was " + redact(uri));
        }
        String scheme = parsed.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new InvalidInputException("redisUri",
                    "must start with redis://, rediss://, redis-cluster://, rediss-cluster:// or redis-sentinel://, was "
                            + redact(uri));
        }
        String host = parsed.getHost();
        if (host == null || host.isEmpty()) {
            throw new InvalidInputException("redisUri", "needs a host, was " + redact(uri));
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = parsed.getPort() < 0 ? DEFAULT_PORT : parsed.getPort();
        if (port < 1 || port > MAX_PORT) {
            throw new InvalidInputException("redisUri", "the port must be 1 to " + MAX_PORT + ", was " + port);
        }
        String username = null;
        String password = null;
        String userInfo = parsed.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo); // redis://secret@host: a password without a user, as redis-cli reads it
            } else {
                username = colon == 0 ? null : decode(userInfo.substring(0, colon));
                password = decode(userInfo.substring(colon + 1));
            }
        }
        return new RedisEndpoint(host, port, "rediss".equalsIgnoreCase(scheme), username, password,
                database(parsed.getPath(), uri));
    }

    public static RedisEndpoint of(String host, int port) {
        return new RedisEndpoint(host, port, false, null, null, 0);
    }

    private static int database(String path, String uri) {
        if (path == null || path.isEmpty() || path.equals("/")) {
            return 0;
        }
        try {
            int database = Integer.parseInt(path.substring(1));
            if (database < 0) {
                throw new NumberFormatException();
            }
            return database;
        } catch (NumberFormatException e) {
            throw new InvalidInputException("redisUri", "the path must be a database number, was " + redact(uri));
        }
    }

    /** Percent-decodes a part of the URI; the JDK's message on a bad escape quotes the text, which may be the password. */
    private static String decode(String text) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("redisUri", "has a malformed %-escape (write % as %25)");
        }
    }

    /**
     * The URI without what stands between {@code ://} and the last {@code @}: the user info, which may
     * itself hold {@code /}, {@code @}, {@code ?} or {@code #}. Redacting too much is harmless; too little leaks.
     */
    static String redact(String uri) {
        int start = uri.indexOf("://");
        int at = uri.lastIndexOf('@');
        int from = start < 0 ? 0 : start + 3;
        return at < from ? uri : uri.substring(0, from) + "***" + uri.substring(at);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public boolean tls() {
        return tls;
    }

    public Optional<String> username() {
        return Optional.ofNullable(username);
    }

    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    public int database() {
        return database;
    }

    /** Whether this names a Redis Cluster ({@code redis-cluster://}) rather than one server. */
    public boolean cluster() {
        return !clusterSeeds.isEmpty();
    }

    /** The nodes a cluster client starts from (unresolved); empty for a single server. */
    public List<InetSocketAddress> clusterSeeds() {
        return clusterSeeds;
    }

    /** Whether the master is found through Redis Sentinel ({@code redis-sentinel://}). */
    public boolean sentinel() {
        return sentinelMaster != null;
    }

    /** The sentinels to ask for the master (unresolved); empty without Sentinel. */
    public List<InetSocketAddress> sentinels() {
        return sentinels;
    }

    /** The name the sentinels monitor the master under; empty without Sentinel. */
    public Optional<String> sentinelMaster() {
        return Optional.ofNullable(sentinelMaster);
    }

    /** The URI's {@code wait=}: replicas that must acknowledge each publish, 0 when not asked for. */
    public int waitReplicas() {
        return waitReplicas;
    }

    /** The URI's {@code waitTimeout=} (default {@link #DEFAULT_WAIT_TIMEOUT}). */
    public Duration waitTimeout() {
        return waitTimeout;
    }

    /**
     * {@code host:port}, the way messages name the server; a cluster's seeds joined by commas; the
     * sentinels and the master's name ({@code h1:26379,h2:26379/mymaster}) through Sentinel.
     */
    public String address() {
        if (cluster()) {
            return clusterSeeds.stream().map(seed -> address(seed.getHostString(), seed.getPort()))
                    .collect(Collectors.joining(","));
        }
        if (sentinel()) {
            return sentinels.stream().map(node -> address(node.getHostString(), node.getPort()))
                    .collect(Collectors.joining(",")) + "/" + sentinelMaster;
        }
        return address(host, port);
    }

    private static String address(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        String scheme = (tls ? "rediss" : "redis") + (cluster() ? "-cluster" : sentinel() ? "-sentinel" : "");
        String where = sentinel() ? address().substring(0, address().lastIndexOf('/')) : address();
        StringBuilder query = new StringBuilder();
        if (sentinel()) {
            query.append("master=").append(sentinelMaster);
        }
        if (waitReplicas > 0) {
            query.append(query.length() == 0 ? "" : "&").append("wait=").append(waitReplicas)
                    .append("&waitTimeout=").append(waitTimeout.toMillis()).append("ms");
        }
        return scheme + "://" + (username == null ? "" : username + "@") + where
                + (database == 0 ? "" : "/" + database) + (query.length() == 0 ? "" : "?" + query);
    }
}
