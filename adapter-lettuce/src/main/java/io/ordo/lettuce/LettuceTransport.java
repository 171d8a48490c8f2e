package io.ordo.lettuce;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisErrorReply;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTransport;
import io.ordo.redis.RedisUnreachable;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Supplier;

/**
 * Lettuce's way: one connection shared by every thread (commands from many threads are pipelined on
 * it), plus connections kept aside for blocking waits so a BLPOP never holds up the shared one.
 * Nothing connects before the first command.
 */
final class LettuceTransport implements RedisTransport {
    private static final String NOT_CONNECTED = "Currently not connected";
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final RedisOptions options;
    private final RedisClient client;
    private final ConcurrentLinkedDeque<StatefulRedisConnection<byte[], byte[]>> idleWaiters =
            new ConcurrentLinkedDeque<>();
    private volatile StatefulRedisConnection<byte[], byte[]> shared;
    private volatile boolean closed;

    LettuceTransport(RedisOptions options) {
        this.options = options;
        this.client = RedisClient.create(uri(options));
        client.setOptions(ClientOptions.builder()
                // fail at once while disconnected instead of queueing: the caller gets a retryable error
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(options.connectTimeout()).build())
                .build());
    }

    @Override
    public Object evalSha(String sha, byte[][] keys, byte[][] args) {
        return call(() -> shared().sync().evalsha(sha, ScriptOutputType.MULTI, keys, args));
    }

    @Override
    public Object eval(String script, byte[][] keys, byte[][] args) {
        return call(() -> shared().sync().eval(script, ScriptOutputType.MULTI, keys, args));
    }

    @Override
    public void awaitElement(byte[] key, Duration timeout) {
        StatefulRedisConnection<byte[], byte[]> connection = call(this::waiter);
        boolean healthy = false;
        try {
            call(() -> connection.sync().blpop(seconds(capped(timeout)), key));
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
    public RedisEndpoint endpoint() {
        return options.endpoint();
    }

    @Override
    public synchronized void close() {
        closed = true;
        StatefulRedisConnection<byte[], byte[]> waiter;
        while ((waiter = idleWaiters.poll()) != null) {
            waiter.close();
        }
        if (shared != null) {
            shared.close();
        }
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT); // no quiet period: every command has been answered
    }

    private StatefulRedisConnection<byte[], byte[]> shared() {
        StatefulRedisConnection<byte[], byte[]> connection = shared;
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

    private StatefulRedisConnection<byte[], byte[]> waiter() {
        StatefulRedisConnection<byte[], byte[]> connection = idleWaiters.poll();
        return connection != null && connection.isOpen() ? connection : connect();
    }

    private StatefulRedisConnection<byte[], byte[]> connect() {
        if (closed) {
            throw new RedisUnreachable("the store's factory is closed", true, null);
        }
        return client.connect(ByteArrayCodec.INSTANCE);
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

    private static RedisURI uri(RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        RedisURI.Builder builder = RedisURI.builder()
                .withHost(endpoint.host())
                .withPort(endpoint.port())
                .withSsl(endpoint.tls())
                .withDatabase(endpoint.database())
                .withTimeout(options.commandTimeout());
        endpoint.password().ifPresent(password -> {
            if (endpoint.username().isPresent()) {
                builder.withAuthentication(endpoint.username().get(), password);
            } else {
                builder.withPassword(password.toCharArray());
            }
        });
        return builder.build();
    }
}
