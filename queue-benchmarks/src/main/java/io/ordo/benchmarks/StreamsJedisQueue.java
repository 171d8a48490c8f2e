package io.ordo.benchmarks;

import io.ordo.redis.RedisOptions;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntryBinary;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plain Streams consumer-group pattern on Jedis, the way Ordo's Jedis store uses it: a pool of
 * the same size, each command borrowing a connection; a blocking XREADGROUP holds one while it waits.
 */
final class StreamsJedisQueue implements BenchQueue {
    private final RedisClient client;

    StreamsJedisQueue(String uri) {
        RedisOptions options = RedisOptions.create(uri);
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(options.poolSize());
        pool.setMaxIdle(options.poolSize());
        client = RedisClient.builder()
                .hostAndPort(options.endpoint().host(), options.endpoint().port())
                .clientConfig(DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(Math.toIntExact(options.commandTimeout().toMillis())).build())
                .poolConfig(pool)
                .build();
    }

    @Override
    public boolean hasPartitions() {
        return false;
    }

    @Override
    public void publish(Task task) {
        client.xadd(Streams.KEY, XAddParams.xAddParams(), Map.of(Streams.FIELD, task.payload()));
    }

    /** Pipelined: every XADD is sent before the answers are read. */
    @Override
    public void publish(List<Task> tasks) {
        try (AbstractPipeline pipeline = client.pipelined()) {
            for (Task task : tasks) {
                pipeline.xadd(Streams.KEY, XAddParams.xAddParams(), Map.of(Streams.FIELD, task.payload()));
            }
            pipeline.sync();
        }
    }

    @Override
    public Consumer consumer(String name) {
        createGroup();
        byte[] me = Streams.bytes(name);
        return new Consumer() {
            @Override
            public List<Delivery> fetch(int max, Duration wait) {
                XReadGroupParams params = XReadGroupParams.xReadGroupParams().count(max);
                if (wait.toMillis() > 0) {
                    params.block(Math.toIntExact(wait.toMillis()));
                }
                List<Map.Entry<byte[], List<StreamEntryBinary>>> streams = client.xreadGroupBinary(Streams.GROUP, me,
                        params, Map.of(Streams.KEY, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                List<Delivery> deliveries = new ArrayList<>();
                if (streams != null) {
                    for (Map.Entry<byte[], List<StreamEntryBinary>> stream : streams) {
                        for (StreamEntryBinary entry : stream.getValue()) {
                            deliveries.add(new Delivery(entry.getID().toString(), null,
                                    Streams.payload(entry.getFields())));
                        }
                    }
                }
                return deliveries;
            }

            @Override
            public boolean ack(Delivery delivery) {
                return client.xack(Streams.KEY, Streams.GROUP,
                        ((String) delivery.handle()).getBytes(StandardCharsets.US_ASCII)) == 1;
            }

            @Override
            public int ackAll(List<Delivery> deliveries) {
                byte[][] ids = deliveries.stream()
                        .map(delivery -> ((String) delivery.handle()).getBytes(StandardCharsets.US_ASCII))
                        .toArray(byte[][]::new);
                return Math.toIntExact(client.xack(Streams.KEY, Streams.GROUP, ids));
            }

            @Override
            public void keepAlive() {
            }
        };
    }

    private void createGroup() {
        try {
            client.xgroupCreate(Streams.KEY, Streams.GROUP, Streams.bytes("0"), true);
        } catch (JedisDataException e) {
            if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
