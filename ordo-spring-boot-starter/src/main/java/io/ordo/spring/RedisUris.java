package io.ordo.spring;

import org.springframework.core.env.PropertyResolver;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The Redis URI the starter connects to: {@code ordo.redis.uri}; else {@code spring.data.redis.url};
 * else one built from {@code spring.data.redis.host}, {@code port}, {@code username}, {@code password},
 * {@code database} and {@code ssl.enabled} (defaults {@code localhost}, 6379, database 0, no TLS), as
 * Spring Data Redis reads them.
 */
final class RedisUris {
    static final String ORDO_URI = "ordo.redis.uri";
    private static final String SPRING = "spring.data.redis.";

    private RedisUris() {
    }

    static String resolve(PropertyResolver properties) {
        String ordo = properties.getProperty(ORDO_URI);
        if (ordo != null && !ordo.isBlank()) {
            return ordo;
        }
        String url = properties.getProperty(SPRING + "url");
        if (url != null && !url.isBlank()) {
            return url;
        }
        boolean tls = Boolean.parseBoolean(properties.getProperty(SPRING + "ssl.enabled", "false"));
        String host = properties.getProperty(SPRING + "host", "localhost");
        String port = properties.getProperty(SPRING + "port", "6379");
        String username = properties.getProperty(SPRING + "username");
        String password = properties.getProperty(SPRING + "password");
        String database = properties.getProperty(SPRING + "database", "0");
        StringBuilder uri = new StringBuilder(tls ? "rediss://" : "redis://");
        if (password != null && !password.isEmpty()) {
            if (username != null && !username.isEmpty()) {
                uri.append(encode(username));
            }
            uri.append(':').append(encode(password)).append('@');
        } else if (username != null && !username.isEmpty()) {
            uri.append(encode(username)).append('@');
        }
        uri.append(host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host).append(':').append(port.trim());
        if (!database.trim().equals("0")) {
            uri.append('/').append(database.trim());
        }
        return uri.toString();
    }

    /** Percent-encodes user info, so a password with {@code @}, {@code :} or {@code /} survives the URI. */
    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
