package io.ordo.benchmarks;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.ordo.redis.RedisOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The plain Streams consumer-group pattern on Lettuce, the way Ordo's Lettuce store uses it: one
 * shared connection for XADD, XACK and XREADGROUP from every thread, a connection of its own for each
 * consumer's blocking XREADGROUP.
 */
final class StreamsLettuceQueue implements BenchQueue {
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> shared;
    private final RedisCommands<byte[], byte[]> commands;
    private final Duration commandTimeout;

    StreamsLettuceQueue(String uri) {
        RedisOptions options = RedisOptions.create(uri);
        commandTimeout = options.commandTimeout();
        client = RedisClient.create(RedisURI.builder().withHost(options.endpoint().host())
                .withPort(options.endpoint().port()).withTimeout(options.commandTimeout()).build());
        shared = client.connect(ByteArrayCodec.INSTANCE);
        commands = shared.sync();
    }

    @Override
    public boolean hasPartitions() {
        return false;
    }

    @Override
    public void publish(Task task) {
        commands.xadd(Streams.KEY, Map.of(Streams.FIELD, task.payload()));
    }

    /** Pipelined: every XADD is sent before the first answer is awaited. */
    @Override
    public void publish(List<Task> tasks) {
        List<RedisFuture<String>> answers = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            answers.add(shared.async().xadd(Streams.KEY, Map.of(Streams.FIELD, task.payload())));
        }
        if (!LettuceFutures.awaitAll(Duration.ofSeconds(30), answers.toArray(RedisFuture[]::new))) {
            throw new IllegalStateException("XADD pipeline did not finish within 30 s");
        }
    }

    @Override
    public Consumer consumer(String name) {
        createGroup();
        StatefulRedisConnection<byte[], byte[]> reader = client.connect(ByteArrayCodec.INSTANCE);
        io.lettuce.core.Consumer<byte[]> me = io.lettuce.core.Consumer.from(Streams.GROUP, Streams.bytes(name));
        return new Consumer() {
            /**
             * XACK and XREADGROUP are both sent before either answer is awaited: one round trip. A read that
             * may block goes on the consumer's own connection, so it never holds up the shared one.
             */
            @Override
            public AckedAndFetched ackAndFetch(List<Delivery> acks, int max, Duration wait) {
                RedisFuture<Long> acked = acks.isEmpty() ? null
                        : shared.async().xack(Streams.KEY, Streams.GROUP, acks.stream()
                                .map(delivery -> (String) delivery.handle()).toArray(String[]::new));
                RedisFuture<List<StreamMessage<byte[], byte[]>>> read = null;
                if (max > 0) {
                    XReadArgs args = XReadArgs.Builder.count(max);
                    if (wait.toMillis() > 0) {
                        args.block(wait.toMillis());
                    }
                    read = (wait.toMillis() > 0 ? reader : shared).async().xreadgroup(me, args,
                            XReadArgs.StreamOffset.lastConsumed(Streams.KEY));
                }
                int ackedCount = acked == null ? 0 : Math.toIntExact(answer(acked, Duration.ZERO));
                List<Delivery> deliveries = new ArrayList<>();
                if (read != null) {
                    for (StreamMessage<byte[], byte[]> message : answer(read, wait)) {
                        deliveries.add(new Delivery(message.getId(), null, Streams.payload(message.getBody())));
                    }
                }
                return new AckedAndFetched(ackedCount, deliveries);
            }

            @Override
            public void keepAlive() {
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    /** The answer to a command sent asynchronously, within the command timeout plus how long it may block. */
    private <T> T answer(RedisFuture<T> future, Duration blocking) {
        return LettuceFutures.awaitOrCancel(future, commandTimeout.plus(blocking).toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The group reads the stream from its start, so tasks published before it are delivered too. */
    private void createGroup() {
        try {
            commands.xgroupCreate(XReadArgs.StreamOffset.from(Streams.KEY, "0"), Streams.GROUP,
                    XGroupCreateArgs.Builder.mkstream());
        } catch (RedisCommandExecutionException e) {
            if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        shared.close();
        client.shutdown();
    }
}
