package io.ordo.lettuce;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisListCommands;
import io.lettuce.core.api.sync.RedisFunctionCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTls;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A Lettuce client as far as {@link LettuceTransport} needs it: a single server ({@link RedisClient}) or
 * a Redis Cluster ({@link RedisClusterClient}, which routes each command to the node of its key's slot
 * and follows MOVED and ASK redirects), and the commands of one of its connections.
 */
final class LettuceClient<C extends StatefulConnection<byte[], byte[]>> {
    /** The longest pause between two attempts to reconnect a lost connection. */
    private static final Duration RECONNECT_CAP = Duration.ofMillis(500);
    private final AbstractRedisClient client;
    /** Resources made for this client alone (a client does not shut down resources it was given); or null. */
    private final ClientResources ownResources;
    private final Supplier<C> connector;
    /** A connection's commands: every command Ordo sends exists for one server and for a cluster alike. */
    private final Function<C, RedisClusterCommands<byte[], byte[]>> commands;

    private LettuceClient(AbstractRedisClient client, ClientResources ownResources, Supplier<C> connector,
                          Function<C, RedisClusterCommands<byte[], byte[]>> commands) {
        this.client = client;
        this.ownResources = ownResources;
        this.connector = connector;
        this.commands = commands;
    }

    /**
     * One server, or the master that Redis Sentinel names: with a {@code redis-sentinel://} endpoint each
     * (re)connect asks the sentinels where the master is now, so after a failover the connections find the
     * new one by themselves. Nothing connects before {@link #connect()}.
     */
    static LettuceClient<StatefulRedisConnection<byte[], byte[]>> standalone(RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        // Lettuce's default reconnect delay doubles up to 30 s, so a connection lost for a few seconds (a
        // restart, a failover) would come back long after Redis did; capped, it follows within RECONNECT_CAP
        ClientResources resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(1), RECONNECT_CAP, 2, TimeUnit.MILLISECONDS))
                .build();
        RedisClient client = RedisClient.create(resources, endpoint.sentinel() ? sentinelUri(options)
                : uri(options, endpoint.host(), endpoint.port()));
        client.setOptions(common(ClientOptions.builder(), options).build());
        return new LettuceClient<>(client, resources, () -> client.connect(ByteArrayCodec.INSTANCE),
                StatefulRedisConnection::sync);
    }

    /** A cluster from its seed nodes; the topology is read at the first connect and again on redirects. */
    static LettuceClient<StatefulRedisClusterConnection<byte[], byte[]>> cluster(RedisOptions options) {
        RedisClusterClient client = RedisClusterClient.create(options.endpoint().clusterSeeds().stream()
                .map(seed -> uri(options, seed.getHostString(), seed.getPort())).toList());
        client.setOptions(common(ClusterClientOptions.builder(), options)
                // a MOVED or ASK (slot migrated, failover) refreshes the slot map at once
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers().build())
                .build());
        return new LettuceClient<>(client, null, () -> connectToEveryMaster(client),
                StatefulRedisClusterConnection::sync);
    }

    /**
     * A cluster connection opens its node connections on demand, and with REJECT_COMMANDS Lettuce refuses
     * a command whose node connection is still being made; so every master is connected before use
     * (a topology change later is covered by the executor's retry of commands that never left). A master
     * that does not answer is left out: the queues of the others go on.
     */
    private static StatefulRedisClusterConnection<byte[], byte[]> connectToEveryMaster(RedisClusterClient client) {
        StatefulRedisClusterConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
        for (RedisClusterNode node : connection.getPartitions()) {
            if (!node.getSlots().isEmpty()) { // the masters: only they serve slots
                try {
                    connection.getConnection(node.getUri().getHost(), node.getUri().getPort());
                } catch (RedisException unreachable) {
                    // its queues fail with a retryable error on use, as they would without this
                }
            }
        }
        return connection;
    }

    C connect() {
        return connector.get();
    }

    RedisFunctionCommands<byte[], byte[]> functions(C connection) {
        return commands.apply(connection);
    }

    /**
     * FUNCTION LOAD REPLACE; on a cluster on every master, since a queue's functions run on the master of
     * its slot (Lettuce sends FUNCTION LOAD to one node only).
     */
    String loadLibrary(C connection, String code) {
        if (connection instanceof StatefulRedisClusterConnection<?, ?> cluster) {
            String loaded = null;
            for (RedisClusterNode node : cluster.getPartitions()) {
                if (!node.getSlots().isEmpty()) {
                    loaded = ((StatefulRedisClusterConnection<byte[], byte[]>) cluster)
                            .getConnection(node.getUri().getHost(), node.getUri().getPort()).sync().functionLoad(code, true);
                }
            }
            return loaded;
        }
        return commands.apply(connection).functionLoad(code, true);
    }

    RedisListCommands<byte[], byte[]> lists(C connection) {
        return commands.apply(connection);
    }

    /** SCAN to the end; a cluster connection's SCAN goes over every master in turn. */
    List<byte[]> scanKeys(C connection, byte[] pattern) {
        RedisKeyCommands<byte[], byte[]> keys = commands.apply(connection);
        ScanArgs match = ScanArgs.Builder.matches(pattern).limit(1000);
        List<byte[]> found = new ArrayList<>();
        KeyScanCursor<byte[]> cursor = keys.scan(match);
        found.addAll(cursor.getKeys());
        while (!cursor.isFinished()) {
            cursor = keys.scan(cursor, match);
            found.addAll(cursor.getKeys());
        }
        return found;
    }

    /** INFO {@code section} on this connection (on a cluster: the node Lettuce picks). */
    String info(C connection, String section) {
        return commands.apply(connection).info(section);
    }

    /** WAIT on this connection: the replicas that acknowledged its writes so far. */
    long waitForReplicas(C connection, int replicas, Duration timeout) {
        return commands.apply(connection).waitForReplication(replicas, timeout.toMillis());
    }

    void shutdown(Duration quietPeriod, Duration timeout) {
        client.shutdown(quietPeriod, timeout);
        if (ownResources != null) {
            ownResources.shutdown(quietPeriod.toMillis(), timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Options both clients share; the builder's own type comes back so a cluster builder can go on. */
    private static <B extends ClientOptions.Builder> B common(B builder, RedisOptions options) {
        // fail at once while disconnected instead of queueing: the caller gets a retryable error
        builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(options.connectTimeout()).build());
        options.trustedCertificates().ifPresent(pem -> builder.sslOptions(SslOptions.builder().jdkSslProvider()
                .trustManager(RedisTls.trustManagers(pem)).build()));
        return builder;
    }

    private static RedisURI uri(RedisOptions options, String host, int port) {
        return withCommon(RedisURI.builder().withHost(host).withPort(port), options).build();
    }

    /** The sentinels are asked without credentials; the URI's user and password log in to the master. */
    private static RedisURI sentinelUri(RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        RedisURI.Builder builder = RedisURI.builder().withSentinelMasterId(endpoint.sentinelMaster().orElseThrow());
        endpoint.sentinels().forEach(sentinel -> builder.withSentinel(RedisURI.builder()
                .withHost(sentinel.getHostString()).withPort(sentinel.getPort())
                .withTimeout(options.connectTimeout()).build()));
        return withCommon(builder, options).build();
    }

    private static RedisURI.Builder withCommon(RedisURI.Builder builder, RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        builder.withSsl(endpoint.tls())
                .withDatabase(endpoint.database())
                .withTimeout(options.commandTimeout());
        endpoint.password().ifPresent(password -> {
            if (endpoint.username().isPresent()) {
                builder.withAuthentication(endpoint.username().get(), password);
            } else {
                builder.withPassword(password.toCharArray());
            }
        });
        return builder;
    }
}
