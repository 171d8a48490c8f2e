package io.ordo.cli.dashboard;

import com.sun.net.httpserver.Headers;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who may do what on the dashboard (docs/decisions/dashboard.md): anyone who reaches it may read;
 * an action needs the start-up token in {@value #TOKEN_HEADER} and must come from the dashboard's
 * own page, never from another site.
 */
public final class AccessGuard {
    /** The request header that carries the token: a custom header, so no other site's page can send it without CORS, which the dashboard never grants. */
    public static final String TOKEN_HEADER = "X-Ordo-Token";
    /** Shortest token accepted from the operator. */
    public static final int MIN_TOKEN_LENGTH = 16;
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

    private final byte[] tokenDigest;
    private final boolean loopbackOnly;

    private AccessGuard(String token, boolean loopbackOnly) {
        this.tokenDigest = token == null ? null : sha256(token);
        this.loopbackOnly = loopbackOnly;
    }

    /** Actions allowed with {@code token}; a dashboard bound to a loopback address also checks the Host header (DNS rebinding). */
    public static AccessGuard withToken(String token, InetAddress boundTo) {
        if (token == null || token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("token must have at least " + MIN_TOKEN_LENGTH + " characters");
        }
        return new AccessGuard(token, boundTo.isLoopbackAddress());
    }

    /** No actions at all. */
    public static AccessGuard readOnly(InetAddress boundTo) {
        return new AccessGuard(null, boundTo.isLoopbackAddress());
    }

    /** A fresh token: 32 random bytes, URL-safe Base64 (43 characters). */
    public static String generateToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public boolean actionsEnabled() {
        return tokenDigest != null;
    }

    /** Why a request may not even read, if so. */
    Optional<Refusal> checkRead(Headers headers) {
        String host = headers.getFirst("Host");
        if (loopbackOnly && (host == null || !LOOPBACK_HOSTS.contains(hostName(host)))) {
            return Optional.of(new Refusal(421, "this dashboard answers only to localhost, 127.0.0.1 or [::1]"));
        }
        return Optional.empty();
    }

    /** Why a request may not act, if so: wrong origin, no token, wrong token. */
    Optional<Refusal> checkAction(Headers headers) {
        Optional<Refusal> read = checkRead(headers);
        if (read.isPresent()) {
            return read;
        }
        String fetchSite = headers.getFirst("Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
            return Optional.of(new Refusal(403, "cross-site request refused (Sec-Fetch-Site: " + fetchSite + ")"));
        }
        String origin = headers.getFirst("Origin");
        String host = headers.getFirst("Host");
        if (origin != null && !origin.equalsIgnoreCase("http://" + host)) {
            return Optional.of(new Refusal(403, "cross-origin request refused (Origin: " + origin + ")"));
        }
        if (tokenDigest == null) {
            return Optional.of(new Refusal(403, "this dashboard is read-only: it was started with --read-only"));
        }
        String token = headers.getFirst(TOKEN_HEADER);
        if (token == null || token.isEmpty()) {
            return Optional.of(new Refusal(401, "actions need the dashboard token (header " + TOKEN_HEADER + ")"));
        }
        if (!MessageDigest.isEqual(tokenDigest, sha256(token))) {
            return Optional.of(new Refusal(403, "wrong dashboard token"));
        }
        return Optional.empty();
    }

    private static String hostName(String hostHeader) {
        String host = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    // Comparing digests of equal length keeps the comparison's time independent of the token.
    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** An HTTP status and the reason, for the JSON error body. */
    record Refusal(int status, String message) {
    }
}
