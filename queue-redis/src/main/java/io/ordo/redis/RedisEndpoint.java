package io.ordo.redis;

import io.ordo.domain.InvalidInputException;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a Redis server is and how to log in, from a URI:
 * {@code redis://[user[:password]@]host[:port][/database]}, or {@code rediss://} for TLS.
 * A Redis Cluster is {@code redis-cluster://[user[:password]@]host[:port][,host[:port]...]} (or
 * {@code rediss-cluster://} for TLS): any reachable nodes as seeds, the client finds the rest
 * (docs/scaling.md). The password never appears in {@link #toString()}.
 */
public final class RedisEndpoint {
    public static final int DEFAULT_PORT = 6379;
    private static final String CLUSTER_SCHEME = "redis-cluster";
    private static final String TLS_CLUSTER_SCHEME = "rediss-cluster";

    private final String host;
    private final int port;
    private final boolean tls;
    private final String username;
    private final String password;
    private final int database;
    /** Empty for a single server; the seed nodes of a cluster. */
    private final List<InetSocketAddress> clusterSeeds;

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database) {
        this(host, port, tls, username, password, database, List.of());
    }

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database,
                          List<InetSocketAddress> clusterSeeds) {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.username = username;
        this.password = password;
        this.database = database;
        this.clusterSeeds = List.copyOf(clusterSeeds);
    }

    /**
     * Parses a {@code redis://}, {@code rediss://}, {@code redis-cluster://} or {@code rediss-cluster://}
     * URI; the message of a bad one says what is wrong.
     */
    public static RedisEndpoint parse(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new InvalidInputException("redisUri", "must not be empty");
        }
        String scheme = uri.trim().replaceFirst("://.*", "").toLowerCase(Locale.ROOT);
        if (scheme.equals(CLUSTER_SCHEME) || scheme.equals(TLS_CLUSTER_SCHEME)) {
            return parseCluster(uri.trim(), scheme.equals(TLS_CLUSTER_SCHEME));
        }
        return parseServer(uri);
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
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
        List<RedisEndpoint> seeds = new ArrayList<>();
        for (String node : authority.substring(at + 1).split(",", -1)) {
            if (node.isBlank()) {
                throw new InvalidInputException("redisUri", "needs host[:port] for every node, was " + redact(uri));
            }
            seeds.add(parseServer((tls ? "rediss://" : "redis://") + userInfo + node.trim()));
        }
        RedisEndpoint first = seeds.get(0);
        List<InetSocketAddress> addresses = seeds.stream()
                .map(seed -> InetSocketAddress.createUnresolved(seed.host(), seed.port())).toList();
        return new RedisEndpoint(first.host, first.port, tls, first.username, first.password, 0, addresses);
    }

    private static RedisEndpoint parseServer(String uri) {
        URI parsed;
        try {
            parsed = new URI(uri.trim());
        } catch (URISyntaxException e) {
            throw new InvalidInputException("redisUri", "is not a URI: " + e.getMessage(), e);
        }
        String scheme = parsed.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new InvalidInputException("redisUri",
                    "must start with redis://, rediss://, redis-cluster:// or rediss-cluster://, was " + redact(uri));
        }
        String host = parsed.getHost();
        if (host == null || host.isEmpty()) {
            throw new InvalidInputException("redisUri", "needs a host, was " + redact(uri));
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = parsed.getPort() < 0 ? DEFAULT_PORT : parsed.getPort();
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

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String redact(String uri) {
        return uri.replaceAll("//[^@/]*@", "//***@");
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

    /** {@code host:port}, the way messages name the server; a cluster's seeds joined by commas. */
    public String address() {
        if (cluster()) {
            return clusterSeeds.stream().map(seed -> address(seed.getHostString(), seed.getPort()))
                    .collect(Collectors.joining(","));
        }
        return address(host, port);
    }

    private static String address(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        String scheme = (tls ? "rediss" : "redis") + (cluster() ? "-cluster" : "");
        return scheme + "://" + (username == null ? "" : username + "@") + address()
                + (database == 0 ? "" : "/" + database);
    }
}
