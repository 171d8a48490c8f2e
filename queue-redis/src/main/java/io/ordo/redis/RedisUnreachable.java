package io.ordo.redis;

/**
 * The server could not be reached or did not answer in time. {@code neverSent} says the command surely
 * never reached the server (no connection), so sending it again cannot apply it twice.
 */
public final class RedisUnreachable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean neverSent;

    public RedisUnreachable(String message, boolean neverSent, Throwable cause) {
        super(message, cause);
        this.neverSent = neverSent;
    }

    public boolean neverSent() {
        return neverSent;
    }
}
