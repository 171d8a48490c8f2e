package io.ordo.lettuce;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisListCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTls;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A Lettuce client as far as {@link LettuceTransport} needs it: a single server ({@link RedisClient}) or
 * a Redis Cluster ({@link RedisClusterClient}, which routes each command to the node of its key's slot
 * and follows MOVED and ASK redirects), and the commands of one of its connections.
 */
final class LettuceClient<C extends StatefulConnection<byte[], byte[]>> {
    private final AbstractRedisClient client;
    private final Supplier<C> connector;
    private final Function<C, RedisScriptingCommands<byte[], byte[]>> scripting;
    private final Function<C, RedisListCommands<byte[], byte[]>> lists;

    private LettuceClient(AbstractRedisClient client, Supplier<C> connector,
                          Function<C, RedisScriptingCommands<byte[], byte[]>> scripting,
                          Function<C, RedisListCommands<byte[], byte[]>> lists) {
        this.client = client;
        this.connector = connector;
        this.scripting = scripting;
        this.lists = lists;
    }

    /** One server; nothing connects before {@link #connect()}. */
    static LettuceClient<StatefulRedisConnection<byte[], byte[]>> standalone(RedisOptions options) {
        RedisEndpoint endpoint = options.endpoint();
        RedisClient client = RedisClient.create(uri(options, endpoint.host(), endpoint.port()));
        client.setOptions(common(ClientOptions.builder(), options).build());
        return new LettuceClient<>(client, () -> client.connect(ByteArrayCodec.INSTANCE),
                StatefulRedisConnection::sync, StatefulRedisConnection::sync);
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
        return new LettuceClient<>(client, () -> connectToEveryMaster(client),
                StatefulRedisClusterConnection::sync, StatefulRedisClusterConnection::sync);
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

    RedisScriptingCommands<byte[], byte[]> scripting(C connection) {
        return scripting.apply(connection);
    }

    RedisListCommands<byte[], byte[]> lists(C connection) {
        return lists.apply(connection);
    }

    void shutdown(Duration quietPeriod, Duration timeout) {
        client.shutdown(quietPeriod, timeout);
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
        RedisEndpoint endpoint = options.endpoint();
        RedisURI.Builder builder = RedisURI.builder()
                .withHost(host)
                .withPort(port)
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
