package io.ordo.jedis;

import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisErrorReply;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTransport;
import io.ordo.redis.RedisUnreachable;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import io.ordo.redis.RedisTls;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.ScanIteration;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Jedis's way: a pool of connections, each command borrowing one for its round trip; a blocking wait
 * borrows one for as long as it waits. The client (which connects when built) is built on the first
 * command, not here. On a cluster ({@code redis-cluster://}) there is a pool per node and each command
 * goes to the node of its key's slot, following MOVED and ASK redirects. Through Sentinel
 * ({@code redis-sentinel://}) the pool follows the master the sentinels name.
 */
final class JedisTransport implements RedisTransport {
    private final RedisOptions options;
    private volatile UnifiedJedis client;
    private volatile boolean closed;

    JedisTransport(RedisOptions options) {
        this.options = options;
    }

    private UnifiedJedis client() {
        UnifiedJedis built = client;
        if (built == null) {
            synchronized (this) {
                if (closed) {
                    throw new IllegalStateException("the store's factory is closed");
                }
                if (client == null) {
                    client = build(options);
                }
                built = client;
            }
        }
        return built;
    }

    private static UnifiedJedis build(RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(Math.toIntExact(options.connectTimeout().toMillis()))
                .socketTimeoutMillis(Math.toIntExact(options.commandTimeout().toMillis()))
                .database(endpoint.database());
        if (endpoint.tls() && options.trustedCertificates().isPresent()) {
            config.ssl(true)
                    .sslSocketFactory(RedisTls.sslContext(options.trustedCertificates().get()).getSocketFactory())
                    .sslParameters(RedisTls.verifyingHostName());
        } else if (endpoint.tls()) {
            config.sslOptions(SslOptions.defaults()); // the JVM's trust store, host name verified
        }
        endpoint.username().ifPresent(config::user);
        endpoint.password().ifPresent(config::password);
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(options.poolSize());
        pool.setMaxIdle(options.poolSize());
        pool.setMinIdle(0);
        pool.setMaxWait(options.connectTimeout());
        if (endpoint.cluster()) {
            Set<HostAndPort> seeds = endpoint.clusterSeeds().stream()
                    .map(seed -> new HostAndPort(seed.getHostString(), seed.getPort())).collect(Collectors.toSet());
            return RedisClusterClient.builder()
                    .nodes(seeds)
                    .clientConfig(config.build())
                    .poolConfig(pool)
                    // redirects and a topology change stay within one command's time
                    .maxTotalRetriesDuration(options.commandTimeout())
                    .build();
        }
        if (endpoint.sentinel()) {
            // the client asks the sentinels for the master and listens for their +switch-master, moving its
            // pool to the new master after a failover; the sentinels are asked without credentials
            Set<HostAndPort> sentinels = endpoint.sentinels().stream()
                    .map(node -> new HostAndPort(node.getHostString(), node.getPort())).collect(Collectors.toSet());
            return RedisSentinelClient.builder()
                    .masterName(endpoint.sentinelMaster().orElseThrow())
                    .sentinels(sentinels)
                    .sentinelClientConfig(DefaultJedisClientConfig.builder()
                            .connectionTimeoutMillis(Math.toIntExact(options.connectTimeout().toMillis()))
                            .socketTimeoutMillis(Math.toIntExact(options.commandTimeout().toMillis()))
                            .build())
                    .clientConfig(config.build())
                    .poolConfig(pool)
                    .build();
        }
        return RedisClient.builder()
                .hostAndPort(endpoint.host(), endpoint.port())
                .clientConfig(config.build())
                .poolConfig(pool)
                .build();
    }

    @Override
    public Object fcall(String function, byte[][] keys, byte[][] args) {
        return call(() -> client().fcall(function.getBytes(StandardCharsets.US_ASCII), Arrays.asList(keys),
                Arrays.asList(args)));
    }

    /** On a cluster on every node, since a queue's functions run on the master of its slot. */
    @Override
    public void loadLibrary(String code) {
        byte[] library = code.getBytes(StandardCharsets.UTF_8);
        call(() -> client() instanceof RedisClusterClient cluster
                ? cluster.broadcastCommand(new CommandObjects(RedisProtocol.RESP2).functionLoadReplace(library))
                : client().functionLoadReplace(library));
    }

    /** A pipeline holds one pooled connection for both commands, so the WAIT covers the function's write. */
    @Override
    public ConfirmedReply fcallAndWait(String function, byte[][] keys, byte[][] args, int replicas,
                                       Duration timeout) {
        return call(() -> {
            try (AbstractPipeline pipeline = client().pipelined()) {
                Response<Object> reply = pipeline.fcall(function.getBytes(StandardCharsets.US_ASCII),
                        Arrays.asList(keys), Arrays.asList(args));
                Response<Long> acknowledged = pipeline.waitReplicas(keys[0], replicas, timeout.toMillis());
                pipeline.sync();
                return new ConfirmedReply(reply.get(), acknowledged.get());
            }
        });
    }

    @Override
    public void awaitElement(byte[] key, Duration timeout) {
        // BLPOP 0 would wait forever; Jedis lifts the socket timeout while a blocking command waits
        call(() -> client().blpop(Math.max(timeout.toMillis(), 1) / 1000.0, key));
    }

    /** Jedis's scan iteration visits every node of a cluster (replicas too: a key may come twice). */
    @Override
    public List<byte[]> scanKeys(byte[] pattern) {
        return call(() -> {
            ScanIteration scan = client().scanIteration(1000, new String(pattern, StandardCharsets.UTF_8));
            List<byte[]> found = new ArrayList<>();
            while (!scan.isIterationCompleted()) {
                scan.nextBatchList().forEach(key -> found.add(key.getBytes(StandardCharsets.UTF_8)));
            }
            return found;
        });
    }

    @Override
    public String info(String section) {
        return call(() -> client().info(section));
    }

    @Override
    public RedisEndpoint endpoint() {
        return options.endpoint();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.close();
        }
    }

    private static <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisDataException e) {
            throw new RedisErrorReply(e.getMessage(), e);
        } catch (JedisConnectionException e) {
            throw new RedisUnreachable(message(e), neverSent(e), e);
        } catch (JedisException e) {
            throw new RedisUnreachable(message(e), neverSent(e), e); // e.g. no connection free in the pool
        } catch (IllegalStateException e) {
            throw new RedisUnreachable(message(e), true, e); // the pool is closed
        }
    }

    /** A refused or failed connect means the command never left. */
    private static boolean neverSent(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof java.util.NoSuchElementException) {
                return true;
            }
            if (cause.getMessage() != null && cause.getMessage().startsWith("Failed to connect")) {
                return true;
            }
        }
        return false;
    }

    private static String message(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return e.getMessage() + (cause != e ? " (" + cause.getMessage() + ")" : "");
    }
}
