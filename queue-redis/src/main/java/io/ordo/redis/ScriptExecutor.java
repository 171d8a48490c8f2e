package io.ordo.redis;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.OrdoException;
import io.ordo.ports.QueueCapacityException;
import io.ordo.ports.QueueDataException;
import io.ordo.ports.QueueUnavailableException;
import io.ordo.ports.StoreClosedException;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the store's functions through a backend's {@link RedisTransport}: FCALL; when the server does not
 * have the library (a restart without persistence, a fresh node, {@code FUNCTION FLUSH}) it is loaded
 * with {@code FUNCTION LOAD REPLACE} and the call sent again. Commands that never reached the server are
 * sent again a bounded number of times. Every Redis failure becomes one of the port's exceptions here,
 * in one place.
 */
public final class ScriptExecutor {
    private static final Pattern KEY_IN_ERROR = Pattern.compile("\\(key ([^)]*)\\)");
    private static final List<String> TRANSIENT_ERRORS = List.of("LOADING", "BUSY", "MASTERDOWN", "READONLY",
            "TRYAGAIN", "CLUSTERDOWN", "NOREPLICAS");

    private final RedisTransport transport;
    private final EvictionWarning evictionWarning = new EvictionWarning();
    private final int retries;
    private final Duration retryBackoff;
    private final int publishWaitReplicas;
    private final Duration publishWaitTimeout;
    private final DueTimeWakes dueTimeWakes = new DueTimeWakes(this::wake);
    private volatile boolean closed;

    public ScriptExecutor(RedisTransport transport, RedisOptions options) {
        this.transport = transport;
        this.retries = options.retries();
        this.retryBackoff = options.retryBackoff();
        this.publishWaitReplicas = options.publishWaitReplicas();
        this.publishWaitTimeout = options.publishWaitTimeout();
    }

    /** Runs a script on the queue's keys; the reply as a list (a single value becomes a list of one). */
    public List<Object> run(RedisScript script, KeySchema keys, byte[][] args) {
        ensureOpen();
        try {
            return runWithRetries(script, keys, args);
        } catch (RuntimeException e) {
            throw closed ? closedUnder(e) : e;
        }
    }

    private List<Object> runWithRetries(RedisScript script, KeySchema keys, byte[][] args) {
        for (int attempt = 0; ; attempt++) {
            try {
                return asList(callOnce(script, keys, args));
            } catch (RedisUnreachable e) {
                if (!e.neverSent() || attempt >= retries) {
                    throw unavailable(e);
                }
                pause(attempt);
            } catch (RedisErrorReply e) {
                throw translate(e, script, keys);
            }
        }
    }

    /** Waits until the queue's signal list receives an element or the timeout passes. */
    public void awaitSignal(KeySchema keys, Duration timeout) {
        ensureOpen();
        try {
            awaitSignalOnce(keys, timeout);
        } catch (RuntimeException e) {
            throw closed ? closedUnder(e) : e; // the factory closed the connection this wait was on
        }
        ensureOpen();
    }

    private void awaitSignalOnce(KeySchema keys, Duration timeout) {
        try {
            transport.awaitElement(keys.signalKey(), timeout);
        } catch (RedisUnreachable e) {
            throw unavailable(e);
        } catch (RedisErrorReply e) {
            throw translate(e, null, keys);
        }
    }

    /**
     * Wakes the queue's waiting consumers when {@code untilDue} has passed, precisely: a {@code BLPOP}'s
     * own timeout ends only at the server's next timer tick ({@link DueTimeWakes}).
     */
    public void wakeAfter(KeySchema keys, Duration untilDue) {
        dueTimeWakes.wakeAfter(keys, untilDue);
    }

    private void wake(KeySchema keys) {
        run(RedisScript.WAKE, keys, new byte[][] {new byte[0]}); // no clock argument: the server's TIME
    }

    /** The names of the keys matching {@code pattern} (SCAN; on a cluster every node), for operators' views. */
    List<byte[]> scanKeys(byte[] pattern) {
        ensureOpen();
        try {
            return transport.scanKeys(pattern);
        } catch (RedisUnreachable e) {
            throw unavailable(e);
        } catch (RedisErrorReply e) {
            throw new QueueUnavailableException("Redis at " + transport.endpoint().address()
                    + " refused to list the queues' keys: " + e.getMessage(), e);
        }
    }

    public RedisEndpoint endpoint() {
        return transport.endpoint();
    }

    /** The factory closed: every call from now on, and every call the closing cut short, is refused as closed. */
    void close() {
        closed = true;
        dueTimeWakes.close();
    }

    void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("the Redis store factory for " + transport.endpoint().address()
                    + " was closed; its stores cannot be used any more");
        }
    }

    private StoreClosedException closedUnder(RuntimeException cause) {
        return new StoreClosedException("the Redis store factory for " + transport.endpoint().address()
                + " was closed during the call", cause);
    }

    /** FCALL, and when the server does not have the function, the library loaded and FCALL again. */
    private Object callOnce(RedisScript script, KeySchema keys, byte[][] args) {
        try {
            return send(script, keys, args);
        } catch (RedisErrorReply e) {
            if (!e.isMissingFunction()) {
                throw e;
            }
            transport.loadLibrary(RedisLibrary.CURRENT.code());
            return send(script, keys, args);
        }
    }

    private Object send(RedisScript script, KeySchema keys, byte[][] args) {
        evictionWarning.startOnce(transport);
        if (script == RedisScript.PUBLISH && publishWaitReplicas > 0) {
            return confirmed(transport.fcallAndWait(script.functionName(), keys.declaredKeys(), args,
                    publishWaitReplicas, publishWaitTimeout), keys);
        }
        return transport.fcall(script.functionName(), keys.declaredKeys(), args);
    }

    /**
     * A publish counts only once {@code publishWaitReplicas} replicas have it, so a failover to one of
     * them cannot lose it. Fewer in time is a retryable failure; the tasks are on the master all the same,
     * and publishing them again is safe since their ids are deduplicated.
     */
    private Object confirmed(RedisTransport.ConfirmedReply confirmed, KeySchema keys) {
        if (confirmed.replicas() < publishWaitReplicas) {
            throw new QueueUnavailableException("publish to queue " + keys.queue() + " on Redis at "
                    + transport.endpoint().address() + " not confirmed: " + confirmed.replicas() + " of "
                    + publishWaitReplicas + " replicas acknowledged it within " + publishWaitTimeout.toMillis()
                    + " ms; its tasks may exist on the master (a failover now could lose them), publishing them"
                    + " again is safe (same ids are deduplicated)");
        }
        return confirmed.reply();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object reply) {
        return reply instanceof List<?> list ? (List<Object>) list : java.util.Collections.singletonList(reply);
    }

    private void pause(int attempt) {
        try {
            Thread.sleep(retryBackoff.toMillis() << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueueUnavailableException("interrupted while waiting to retry Redis at "
                    + transport.endpoint().address(), e);
        }
    }

    private QueueUnavailableException unavailable(RedisUnreachable e) {
        return new QueueUnavailableException("Redis at " + transport.endpoint().address() + " is unavailable: "
                + e.getMessage(), e);
    }

    private OrdoException translate(RedisErrorReply e, RedisScript script, KeySchema keys) {
        String message = RedisLibrary.CURRENT.locate(String.valueOf(e.getMessage()));
        String address = transport.endpoint().address();
        String operation = script == null ? "waiting for work" : script.operation();
        if (message.startsWith("OOM")) {
            return new QueueCapacityException("Redis at " + address + " is over its maxmemory and refused "
                    + operation + " of queue " + keys.queue() + " before writing anything: " + message, e);
        }
        if (message.startsWith("ORDO_NO_GROUP")) {
            return new InvalidInputException("group", "queue " + keys.queue() + " has no consumer group "
                    + keys.group().map(Object::toString).orElse("(none named)"));
        }
        if (message.startsWith("WRONGTYPE")) {
            Matcher key = KEY_IN_ERROR.matcher(message);
            String named = key.find() ? key.group(1) : "under " + keys.prefix();
            return new QueueDataException("key " + named + " on Redis at " + address
                    + " holds a value of the wrong type for queue " + keys.queue()
                    + " (written by something else than Ordo?): " + message, e);
        }
        for (String transientError : TRANSIENT_ERRORS) {
            if (message.startsWith(transientError)) {
                return new QueueUnavailableException("Redis at " + address + " cannot serve " + operation
                        + " right now: " + message, e);
            }
        }
        if (message.startsWith("NOAUTH") || message.startsWith("WRONGPASS") || message.startsWith("NOPERM")) {
            return new QueueUnavailableException("Redis at " + address + " refused the login or the command: "
                    + message, e);
        }
        return new QueueDataException(operation + " of queue " + keys.queue() + " failed on Redis at " + address
                + ": " + message, e);
    }
}
