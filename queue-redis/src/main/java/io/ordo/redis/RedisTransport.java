package io.ordo.redis;

import java.time.Duration;
import java.util.List;

/**
 * The client calls a Redis backend makes for the stores; everything else is shared. Replies come back
 * as {@code Long}, {@code byte[]}, {@code List<Object>} or {@code null}. A server error reply is thrown
 * as {@link RedisErrorReply}; a connection that fails or times out as {@link RedisUnreachable}.
 */
public interface RedisTransport extends AutoCloseable {
    /** FCALL of one function of a loaded library. */
    Object fcall(String function, byte[][] keys, byte[][] args);

    /** FUNCTION LOAD REPLACE of a library: on the server, or on every master of a cluster. */
    void loadLibrary(String code);

    /**
     * Removes an element of the list if one arrives within the timeout (BLPOP), on a connection used
     * for nothing else meanwhile. May return early; the caller looks again either way.
     */
    void awaitElement(byte[] key, Duration timeout);

    /**
     * The function and then {@code WAIT replicas timeout}, both on one connection that nothing else uses
     * meanwhile, so the WAIT covers this write. The function's error reply, if any, is thrown as by
     * {@link #fcall}. Only transports that can pin a connection support it.
     */
    default ConfirmedReply fcallAndWait(String function, byte[][] keys, byte[][] args, int replicas,
                                        Duration timeout) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot wait for replicas");
    }

    /** A function's reply and how many replicas acknowledged its write. */
    record ConfirmedReply(Object reply, long replicas) {
    }

    /**
     * The names of the keys matching a glob pattern (SCAN with MATCH, cursor to the end), on every node of
     * a cluster. A key may come more than once; a key written or deleted meanwhile may be missed (SCAN's
     * guarantee). Only transports that can list keys support it.
     */
    default List<byte[]> scanKeys(byte[] pattern) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot list keys");
    }

    /**
     * The text of {@code INFO section} from the server (on a cluster: from one node). Only transports that
     * can ask support it; the stores use it for one warning at start, never on a task's path.
     */
    default String info(String section) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot read INFO");
    }

    /** Where this transport connects, for messages. */
    RedisEndpoint endpoint();

    @Override
    void close();
}
