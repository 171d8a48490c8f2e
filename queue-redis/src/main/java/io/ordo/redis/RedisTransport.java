package io.ordo.redis;

import java.time.Duration;

/**
 * The client calls a Redis backend makes for the stores; everything else is shared. Replies come back
 * as {@code Long}, {@code byte[]}, {@code List<Object>} or {@code null}. A server error reply is thrown
 * as {@link RedisErrorReply}; a connection that fails or times out as {@link RedisUnreachable}.
 */
public interface RedisTransport extends AutoCloseable {
    /** EVALSHA. */
    Object evalSha(String sha, byte[][] keys, byte[][] args);

    /** EVAL (which also caches the script on the server). */
    Object eval(String script, byte[][] keys, byte[][] args);

    /**
     * Removes an element of the list if one arrives within the timeout (BLPOP), on a connection used
     * for nothing else meanwhile. May return early; the caller looks again either way.
     */
    void awaitElement(byte[] key, Duration timeout);

    /** Where this transport connects, for messages. */
    RedisEndpoint endpoint();

    @Override
    void close();
}
