package io.ordo.cli.doctor;

import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTls;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One plain connection to one Redis server (or sentinel) for {@code ordo doctor}: any command by name,
 * its reply as text. It sends nothing at connect but the login (no client name), so a user allowed
 * only Ordo's commands can connect.
 */
final class RedisConnection implements AutoCloseable {
    private final Jedis jedis;
    private final String address;

    private RedisConnection(Jedis jedis, String address) {
        this.jedis = jedis;
        this.address = address;
    }

    /** Connects and logs in as the URI's user (TLS as the stores do), or as nobody when {@code withCredentials} is false (sentinels). */
    static RedisConnection open(RedisOptions options, String host, int port, boolean withCredentials) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(Math.toIntExact(options.connectTimeout().toMillis()))
                .socketTimeoutMillis(Math.toIntExact(options.commandTimeout().toMillis()));
        if (withCredentials) {
            if (options.endpoint().tls() && options.trustedCertificates().isPresent()) {
                config.ssl(true)
                        .sslSocketFactory(RedisTls.sslContext(options.trustedCertificates().get()).getSocketFactory())
                        .sslParameters(RedisTls.verifyingHostName());
            } else if (options.endpoint().tls()) {
                config.sslOptions(SslOptions.defaults());
            }
            options.endpoint().username().ifPresent(config::user);
            options.endpoint().password().ifPresent(config::password);
            config.database(options.endpoint().database());
        }
        Jedis jedis = new Jedis(new HostAndPort(host, port), config.build());
        jedis.connect();
        return new RedisConnection(jedis, (host.contains(":") ? "[" + host + "]" : host) + ":" + port);
    }

    String address() {
        return address;
    }

    /** The reply as text (a status, a bulk string, a number) or a list of such; an error reply throws {@link JedisDataException}. */
    Object call(String... words) {
        ProtocolCommand command = () -> words[0].getBytes(StandardCharsets.UTF_8);
        return text(jedis.sendCommand(command, Arrays.copyOfRange(words, 1, words.length)));
    }

    String callText(String... words) {
        Object reply = call(words);
        return reply == null ? null : reply.toString();
    }

    private static Object text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            return list.stream().map(RedisConnection::text).toList();
        }
        return reply;
    }

    @Override
    public void close() {
        jedis.close();
    }
}
