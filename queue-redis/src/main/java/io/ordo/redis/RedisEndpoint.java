package io.ordo.redis;

import io.ordo.domain.InvalidInputException;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where a Redis server is and how to log in, from a URI:
 * {@code redis://[user[:password]@]host[:port][/database]}, or {@code rediss://} for TLS.
 * The password never appears in {@link #toString()}.
 */
public final class RedisEndpoint {
    public static final int DEFAULT_PORT = 6379;

    private final String host;
    private final int port;
    private final boolean tls;
    private final String username;
    private final String password;
    private final int database;

    private RedisEndpoint(String host, int port, boolean tls, String username, String password, int database) {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.username = username;
        this.password = password;
        this.database = database;
    }

    /** Parses a {@code redis://} or {@code rediss://} URI; the message of a bad one says what is wrong. */
    public static RedisEndpoint parse(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new InvalidInputException("redisUri", "must not be empty");
        }
        URI parsed;
        try {
            parsed = new URI(uri.trim());
        } catch (URISyntaxException e) {
            throw new InvalidInputException("redisUri", "is not a URI: " + e.getMessage(), e);
        }
        String scheme = parsed.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new InvalidInputException("redisUri", "must start with redis:// or rediss://, was " + redact(uri));
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

    /** {@code host:port}, the way messages name the server. */
    public String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "rediss://" : "redis://") + (username == null ? "" : username + "@") + address()
                + (database == 0 ? "" : "/" + database);
    }
}
