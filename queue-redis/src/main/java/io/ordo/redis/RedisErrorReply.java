package io.ordo.redis;

/** An error reply from the server (NOSCRIPT, WRONGTYPE, OOM, ...), as a transport received it. */
public final class RedisErrorReply extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RedisErrorReply(String message, Throwable cause) {
        super(message, cause);
    }

    boolean isNoScript() {
        return getMessage() != null && getMessage().startsWith("NOSCRIPT");
    }
}
