package io.ordo.lettuce;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisErrorReply;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTransport;
import io.ordo.redis.RedisUnreachable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Supplier;

/**
 * Lettuce's way: one connection shared by every thread (commands from many threads are pipelined on
 * it), plus connections kept aside for blocking waits so a BLPOP never holds up the shared one.
 * Nothing connects before the first command. The same on a cluster, where a connection is one to
 * every node it needs.
 */
final class LettuceTransport<C extends StatefulConnection<byte[], byte[]>> implements RedisTransport {
    private static final String NOT_CONNECTED = "Currently not connected";
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final RedisOptions options;
    private final LettuceClient<C> client;
    private final ConcurrentLinkedDeque<C> idleWaiters = new ConcurrentLinkedDeque<>();
    private volatile C shared;
    private volatile boolean closed;

    private LettuceTransport(RedisOptions options, LettuceClient<C> client) {
        this.options = options;
        this.client = client;
    }

    /** A cluster client for a {@code redis-cluster://} endpoint, else a single-server one. */
    static LettuceTransport<?> create(RedisOptions options) {
        return options.endpoint().cluster()
                ? new LettuceTransport<>(options, LettuceClient.cluster(options))
                : new LettuceTransport<>(options, LettuceClient.standalone(options));
    }

    @Override
    public Object fcall(String function, byte[][] keys, byte[][] args) {
        return call(() -> client.functions(shared()).fcall(function, ScriptOutputType.MULTI, keys, args));
    }

    @Override
    public void loadLibrary(String code) {
        call(() -> client.loadLibrary(shared(), code));
    }

    /**
     * On a connection kept aside like a blocking wait's: WAIT blocks its connection, which must not hold up
     * the commands every other thread pipelines on the shared one.
     */
    @Override
    public ConfirmedReply fcallAndWait(String function, byte[][] keys, byte[][] args, int replicas,
                                       Duration timeout) {
        C connection = call(this::waiter);
        boolean healthy = false;
        try {
            Object reply;
            try {
                reply = call(() -> client.functions(connection).fcall(function, ScriptOutputType.MULTI, keys, args));
            } catch (RedisErrorReply e) {
                healthy = true; // an error reply leaves the connection as good as it was
                throw e;
            }
            long acknowledged = call(() -> client.waitForReplicas(connection, replicas, timeout));
            healthy = true;
            return new ConfirmedReply(reply, acknowledged);
        } finally {
            if (healthy && !closed) {
                idleWaiters.push(connection);
            } else {
                connection.closeAsync();
            }
        }
    }

    @Override
    public void awaitElement(byte[] key, Duration timeout) {
        C connection = call(this::waiter);
        boolean healthy = false;
        try {
            call(() -> client.lists(connection).blpop(seconds(capped(timeout)), key));
            healthy = true;
        } catch (RedisUnreachable e) {
            if (e.getCause() instanceof RedisCommandInterruptedException) {
                Thread.currentThread().interrupt(); // the caller sees the flag and stops waiting
                return;
            }
            throw e;
        } finally {
            if (healthy && !closed) {
                idleWaiters.push(connection);
            } else {
                connection.closeAsync();
            }
        }
    }

    @Override
    public List<byte[]> scanKeys(byte[] pattern) {
        return call(() -> client.scanKeys(shared(), pattern));
    }

    @Override
    public String info(String section) {
        return call(() -> client.info(shared(), section));
    }

    @Override
    public RedisEndpoint endpoint() {
        return options.endpoint();
    }

    @Override
    public synchronized void close() {
        closed = true;
        C waiter;
        while ((waiter = idleWaiters.poll()) != null) {
            waiter.close();
        }
        if (shared != null) {
            shared.close();
        }
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT); // no quiet period: every command has been answered
    }

    private C shared() {
        C connection = shared;
        if (connection == null) {
            synchronized (this) {
                if (shared == null) {
                    shared = connect();
                }
                connection = shared;
            }
        }
        return connection;
    }

    private C waiter() {
        C connection;
        while ((connection = idleWaiters.poll()) != null) {
            if (connection.isOpen()) {
                return connection;
            }
            connection.closeAsync(); // lost while idle (a restart, a failover): nobody would use its reconnects
        }
        return connect();
    }

    private C connect() {
        if (closed) {
            throw new RedisUnreachable("the store's factory is closed", true, null);
        }
        return client.connect();
    }

    /** A blocking wait must end before the command timeout would cancel it. */
    private Duration capped(Duration timeout) {
        Duration limit = options.commandTimeout().minusSeconds(1);
        if (limit.compareTo(Duration.ofSeconds(1)) < 0) {
            limit = options.commandTimeout().dividedBy(2);
        }
        return timeout.compareTo(limit) <= 0 ? timeout : limit;
    }

    private static double seconds(Duration timeout) {
        return Math.max(timeout.toMillis(), 1) / 1000.0; // BLPOP 0 would wait forever
    }

    private static <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (RedisCommandExecutionException e) {
            throw new RedisErrorReply(e.getMessage(), e);
        } catch (RedisConnectionException e) {
            throw new RedisUnreachable(message(e), true, e);
        } catch (RedisCommandTimeoutException e) {
            throw new RedisUnreachable(message(e), false, e);
        } catch (RedisException e) {
            boolean neverSent = e.getMessage() != null && e.getMessage().startsWith(NOT_CONNECTED);
            throw new RedisUnreachable(message(e), neverSent, e);
        }
    }

    private static String message(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return e.getMessage() + (cause != e ? " (" + cause.getMessage() + ")" : "");
    }
}
