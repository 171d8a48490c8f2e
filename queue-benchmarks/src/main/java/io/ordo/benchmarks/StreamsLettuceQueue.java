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

/**
 * The plain Streams consumer-group pattern on Lettuce, the way Ordo's Lettuce store uses it: one
 * shared connection for XADD and XACK from every thread, a connection of its own for each consumer's
 * blocking XREADGROUP.
 */
final class StreamsLettuceQueue implements BenchQueue {
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> shared;
    private final RedisCommands<byte[], byte[]> commands;

    StreamsLettuceQueue(String uri) {
        RedisOptions options = RedisOptions.create(uri);
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
            @Override
            public List<Delivery> fetch(int max, Duration wait) {
                XReadArgs args = XReadArgs.Builder.count(max);
                if (wait.toMillis() > 0) {
                    args.block(wait.toMillis());
                }
                List<StreamMessage<byte[], byte[]>> messages =
                        reader.sync().xreadgroup(me, args, XReadArgs.StreamOffset.lastConsumed(Streams.KEY));
                List<Delivery> deliveries = new ArrayList<>(messages.size());
                for (StreamMessage<byte[], byte[]> message : messages) {
                    deliveries.add(new Delivery(message.getId(), null, Streams.payload(message.getBody())));
                }
                return deliveries;
            }

            @Override
            public boolean ack(Delivery delivery) {
                return commands.xack(Streams.KEY, Streams.GROUP, (String) delivery.handle()) == 1;
            }

            @Override
            public int ackAll(List<Delivery> deliveries) {
                String[] ids = deliveries.stream().map(delivery -> (String) delivery.handle()).toArray(String[]::new);
                return Math.toIntExact(commands.xack(Streams.KEY, Streams.GROUP, ids));
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
