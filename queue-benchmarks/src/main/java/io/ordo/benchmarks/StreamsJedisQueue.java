package io.ordo.benchmarks;

import io.ordo.redis.RedisOptions;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
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
 * the same size, each command (or pipeline) borrowing a connection; a blocking XREADGROUP holds one while
 * it waits.
 */
final class StreamsJedisQueue implements BenchQueue {
    private final RedisClient client;

    /** @param poolSize connections at most, as Ordo's Jedis store in the same run */
    StreamsJedisQueue(String uri, int poolSize) {
        RedisOptions options = RedisOptions.create(uri);
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(poolSize);
        pool.setMaxIdle(poolSize);
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
            /** XACK and XREADGROUP pipelined: one round trip on one borrowed connection. */
            @Override
            public AckedAndFetched ackAndFetch(List<Delivery> acks, int max, Duration wait) {
                Response<Long> acked = null;
                Response<List<Map.Entry<byte[], List<StreamEntryBinary>>>> read = null;
                try (AbstractPipeline pipeline = client.pipelined()) {
                    if (!acks.isEmpty()) {
                        acked = pipeline.xack(Streams.KEY, Streams.GROUP, acks.stream()
                                .map(delivery -> ((String) delivery.handle()).getBytes(StandardCharsets.US_ASCII))
                                .toArray(byte[][]::new));
                    }
                    if (max > 0) {
                        XReadGroupParams params = XReadGroupParams.xReadGroupParams().count(max);
                        if (wait.toMillis() > 0) {
                            params.block(Math.toIntExact(wait.toMillis()));
                        }
                        read = pipeline.xreadGroupBinary(Streams.GROUP, me, params,
                                Map.of(Streams.KEY, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                    }
                    pipeline.sync();
                }
                List<Delivery> deliveries = new ArrayList<>();
                if (read != null && read.get() != null) {
                    for (Map.Entry<byte[], List<StreamEntryBinary>> stream : read.get()) {
                        for (StreamEntryBinary entry : stream.getValue()) {
                            deliveries.add(new Delivery(entry.getID().toString(), null,
                                    Streams.payload(entry.getFields())));
                        }
                    }
                }
                return new AckedAndFetched(acked == null ? 0 : Math.toIntExact(acked.get()), deliveries);
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
