package io.ordo.benchmarks;

import io.ordo.jedis.JedisTaskStores;
import io.ordo.lettuce.LettuceTaskStores;
import io.ordo.redis.RedisOptions;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything the harness measures side by side, each opened on the run's one redis-server (like
 * Caffeine's CacheType enum of caches). Ordo's two stores, the plain Streams pattern through the same
 * two clients, and BullMQ through its own Node.js process.
 */
enum Contender {
    ORDO_LETTUCE("Ordo Lettuce") {
        @Override
        Subject open(BenchRedis redis, Path bullmqDirectory) {
            return new JavaSubject(new OrdoQueue(LettuceTaskStores.factory(RedisOptions.create(redis.uri()))),
                    Mode.Sizes.PREFETCH);
        }
    },
    ORDO_JEDIS("Ordo Jedis") {
        @Override
        Subject open(BenchRedis redis, Path bullmqDirectory) {
            return new JavaSubject(new OrdoQueue(JedisTaskStores.factory(RedisOptions.builder(redis.uri())
                    .poolSize(JEDIS_POOL_SIZE).build())), Mode.Sizes.PREFETCH);
        }
    },
    STREAMS_LETTUCE("Streams Lettuce") {
        @Override
        Subject open(BenchRedis redis, Path bullmqDirectory) {
            return new JavaSubject(new StreamsLettuceQueue(redis.uri()), STREAMS_COUNT);
        }
    },
    STREAMS_JEDIS("Streams Jedis") {
        @Override
        Subject open(BenchRedis redis, Path bullmqDirectory) {
            return new JavaSubject(new StreamsJedisQueue(redis.uri(), JEDIS_POOL_SIZE), STREAMS_COUNT);
        }
    },
    BULLMQ("BullMQ") {
        @Override
        Subject open(BenchRedis redis, Path bullmqDirectory) {
            return BullMqSubject.start(bullmqDirectory, redis);
        }
    };

    /** The plain Streams consumer reads XREADGROUP COUNT 50 (docs/benchmarks.md): its prefetch. */
    static final int STREAMS_COUNT = 50;
    /**
     * A Jedis call holds a pooled connection for its round trip (a blocking wait for as long as it waits),
     * so, as a Jedis application sizes its pool, there is one for every thread that may call at once: L2's
     * publishers and the worker's two calls in flight, with room to spare. With the default 16 the callers
     * queued for connections inside the client, and at L2 the worker's fetches fell seconds behind.
     */
    static final int JEDIS_POOL_SIZE = JavaSubject.MOST_PUBLISHERS + 8;

    private final String label;

    Contender(String label) {
        this.label = label;
    }

    abstract Subject open(BenchRedis redis, Path bullmqDirectory);

    String label() {
        return label;
    }

    /** The name on the command line: ordo-lettuce, streams-jedis, bullmq. */
    String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Contender fromCliName(String name) {
        return Arrays.stream(values()).filter(c -> c.cliName().equals(name.trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown contender '" + name + "'; known: "
                        + String.join(", ", Arrays.stream(values()).map(Contender::cliName).toList())));
    }

    boolean isOrdo() {
        return this == ORDO_LETTUCE || this == ORDO_JEDIS;
    }

    /**
     * The Lettuce twin of a Jedis contender. C3 and M1 measure what the server keeps and does, which is
     * the same whichever client sent the commands, so they run on one of the twins when both are in.
     */
    Optional<Contender> lettuceTwin() {
        return switch (this) {
            case ORDO_JEDIS -> Optional.of(ORDO_LETTUCE);
            case STREAMS_JEDIS -> Optional.of(STREAMS_LETTUCE);
            default -> Optional.empty();
        };
    }

    /** The raw Streams contender on the same client as this Ordo store. */
    Optional<Contender> streamsOnSameClient() {
        return switch (this) {
            case ORDO_LETTUCE -> Optional.of(STREAMS_LETTUCE);
            case ORDO_JEDIS -> Optional.of(STREAMS_JEDIS);
            default -> Optional.empty();
        };
    }

    /** The Streams peer this Ordo store is compared with: on the same client if it ran, else the other. */
    Optional<Contender> streamsPeer(java.util.Collection<Contender> inRun) {
        Optional<Contender> same = streamsOnSameClient().filter(inRun::contains);
        if (same.isPresent() || !isOrdo()) {
            return same;
        }
        return java.util.stream.Stream.of(STREAMS_LETTUCE, STREAMS_JEDIS).filter(inRun::contains).findFirst();
    }
}
