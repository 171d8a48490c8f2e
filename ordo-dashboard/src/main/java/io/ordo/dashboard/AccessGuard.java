package io.ordo.dashboard;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Who may do what on the dashboard (docs/decisions/dashboard.md): a request must name the
 * dashboard by an allowed {@code Host} (DNS rebinding); reads are open unless the dashboard wants
 * the token for reads too; an action needs the start-up token in {@value #TOKEN_HEADER} and must
 * come from the dashboard's own page, never from another site.
 */
public final class AccessGuard {
    /** The request header that carries the token: a custom header, so no other site's page can send it without CORS, which the dashboard never grants. */
    public static final String TOKEN_HEADER = "X-Ordo-Token";
    /** Shortest token accepted from the operator. */
    public static final int MIN_TOKEN_LENGTH = 16;
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost");
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|\\[[0-9a-fA-F:.%]+]");

    private final byte[] tokenDigest;
    private final boolean actionsEnabled;
    private final boolean tokenForReads;
    private final Set<String> allowedNames;
    private final Set<InetAddress> allowedAddresses;

    private AccessGuard(String token, boolean actionsEnabled, boolean tokenForReads, Set<String> allowedNames,
                        Set<InetAddress> allowedAddresses) {
        this.tokenDigest = token == null ? null : sha256(token);
        this.actionsEnabled = actionsEnabled;
        this.tokenForReads = tokenForReads;
        this.allowedNames = Set.copyOf(allowedNames);
        this.allowedAddresses = Set.copyOf(allowedAddresses);
    }

    /** Actions allowed with {@code token}; reads need it too when the dashboard is bound to a non-loopback address. */
    public static AccessGuard withToken(String token, InetAddress boundTo) {
        return create(token, true, !boundTo.isLoopbackAddress(), boundTo, Set.of());
    }

    /** No actions at all, reads open. */
    public static AccessGuard readOnly(InetAddress boundTo) {
        return create(null, false, false, boundTo, Set.of());
    }

    /**
     * The rules of a dashboard bound to {@code boundTo}: {@code token} (null: none) unlocks actions when
     * {@code actionsEnabled} and is needed for reads when {@code tokenForReads}. A request's {@code Host}
     * must be one of {@code allowedHosts} (names, lower case) or an address the dashboard can be reached at:
     * a loopback one ({@code localhost} too) when bound to loopback or every address, the bound one otherwise.
     */
    public static AccessGuard create(String token, boolean actionsEnabled, boolean tokenForReads, InetAddress boundTo,
                                     Collection<String> allowedHosts) {
        if ((actionsEnabled || tokenForReads) && (token == null || token.length() < MIN_TOKEN_LENGTH)) {
            throw new IllegalArgumentException("token must have at least " + MIN_TOKEN_LENGTH + " characters");
        }
        Set<String> names = new HashSet<>();
        allowedHosts.forEach(host -> names.add(host.toLowerCase(Locale.ROOT)));
        Set<InetAddress> addresses = new HashSet<>();
        if (boundTo.isLoopbackAddress() || boundTo.isAnyLocalAddress()) {
            names.addAll(LOOPBACK_NAMES);
            addresses.add(InetAddress.getLoopbackAddress());
            addresses.add(literal("127.0.0.1"));
            addresses.add(literal("::1"));
        }
        if (boundTo.isAnyLocalAddress()) {
            addresses.addAll(localAddresses());
        } else {
            addresses.add(boundTo);
        }
        return new AccessGuard(token, actionsEnabled, tokenForReads, names, addresses);
    }

    /** A fresh token: 32 random bytes, URL-safe Base64 (43 characters). */
    public static String generateToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public boolean actionsEnabled() {
        return actionsEnabled;
    }

    public boolean tokenForReads() {
        return tokenForReads;
    }

    /** Why a request may not even load the page and its files, if so: a Host the dashboard does not answer to. */
    Optional<Refusal> checkHost(UnaryOperator<String> headers) {
        String host = headers.apply("Host");
        if (host == null || !allowedHost(hostName(host))) {
            return Optional.of(new Refusal(421, "this dashboard does not answer to the host "
                    + (host == null ? "(none)" : "'" + host + "'") + "; start it with --allow-host NAME to add a name"));
        }
        return Optional.empty();
    }

    /** Why a request may not read the API, if so: a wrong Host, or no or a wrong token where reads need it. */
    Optional<Refusal> checkRead(UnaryOperator<String> headers) {
        Optional<Refusal> host = checkHost(headers);
        if (host.isPresent() || !tokenForReads) {
            return host;
        }
        return checkToken(headers, "reads on this dashboard need its token (header " + TOKEN_HEADER + ")");
    }

    /** Why a request may not act, if so: wrong origin, no token, wrong token. */
    Optional<Refusal> checkAction(UnaryOperator<String> headers) {
        Optional<Refusal> session = checkSession(headers);
        if (session.isPresent()) {
            return session;
        }
        if (!actionsEnabled) {
            return Optional.of(new Refusal(403, "this dashboard is read-only: it was started with --read-only"));
        }
        return Optional.empty();
    }

    /** Why a page may not keep {@code headers}' token for this tab, if so: what an action checks, but actions may be off. */
    Optional<Refusal> checkSession(UnaryOperator<String> headers) {
        Optional<Refusal> host = checkHost(headers);
        if (host.isPresent()) {
            return host;
        }
        String fetchSite = headers.apply("Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
            return Optional.of(new Refusal(403, "cross-site request refused (Sec-Fetch-Site: " + fetchSite + ")"));
        }
        String origin = headers.apply("Origin");
        if (origin != null && !origin.equalsIgnoreCase("http://" + headers.apply("Host"))) {
            return Optional.of(new Refusal(403, "cross-origin request refused (Origin: " + origin + ")"));
        }
        if (tokenDigest == null) {
            return Optional.of(new Refusal(403, "this dashboard is read-only: it was started with --read-only"));
        }
        return checkToken(headers, "actions need the dashboard token (header " + TOKEN_HEADER + ")");
    }

    private Optional<Refusal> checkToken(UnaryOperator<String> headers, String missing) {
        String token = headers.apply(TOKEN_HEADER);
        if (token == null || token.isEmpty()) {
            return Optional.of(new Refusal(401, missing));
        }
        if (tokenDigest == null || !MessageDigest.isEqual(tokenDigest, sha256(token))) {
            return Optional.of(new Refusal(403, "wrong dashboard token"));
        }
        return Optional.empty();
    }

    private boolean allowedHost(String name) {
        if (allowedNames.contains(name)) {
            return true;
        }
        // only literals are parsed, so checking a Host never asks DNS
        if (!IP_LITERAL.matcher(name).matches()) {
            return false;
        }
        InetAddress address = literal(name.replaceAll("^\\[|]$", ""));
        return address != null && allowedAddresses.contains(address);
    }

    private static InetAddress literal(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static Set<InetAddress> localAddresses() {
        Set<InetAddress> addresses = new HashSet<>();
        try {
            NetworkInterface.networkInterfaces()
                    .forEach(network -> network.inetAddresses().forEach(addresses::add));
        } catch (SocketException e) {
            // no interface list: the loopback addresses and the allowed names remain
        }
        return addresses;
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
