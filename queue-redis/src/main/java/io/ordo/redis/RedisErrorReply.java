package io.ordo.redis;

/** An error reply from the server (a missing function, WRONGTYPE, OOM, ...), as a transport received it. */
public final class RedisErrorReply extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RedisErrorReply(String message, Throwable cause) {
        super(message, cause);
    }

    /** The server does not have the function called: restarted, failed over, or its functions flushed. */
    boolean isMissingFunction() {
        return getMessage() != null && getMessage().contains("Function not found");
    }
}
