package io.ordo.redis.testing;

import io.ordo.domain.QueueName;
import io.ordo.inmemory.InMemoryTaskStoreFactory;
import io.ordo.ports.VirtualClock;
import io.ordo.redis.RedisTaskStoreFactory;
import io.ordo.simulation.Differential;
import io.ordo.simulation.Seeds;
import io.ordo.simulation.SimulationOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The simulation's seeded schedules on the in-memory reference store and on a Redis store, step by
 * step, each given the queue's own store and its consumer groups' (so the seeds with groups create, use
 * and delete them on both); the first difference fails with both lines and the seed to replay. A backend's test extends
 * this and supplies its factory. Seeds 1..{@link #defaultSeeds()} ({@value #DEFAULT_SEEDS} unless the backend's
 * test says fewer) unless the system properties of {@link Seeds} say otherwise.
 */
@ExtendWith(RedisServerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisDifferentialKit {
    public static final int DEFAULT_SEEDS = 200;

    private final RedisTaskStoreFactory redis;

    protected RedisDifferentialKit(RedisServer server) {
        this.redis = createFactory(server);
    }

    /** The backend's store factory on the test server. */
    protected abstract RedisTaskStoreFactory createFactory(RedisServer server);

    /** The command that replays one seed of this test, with {@code {seed}} where the seed goes. */
    protected abstract String replayCommand();

    /** How many seeds run when the system properties name none. */
    protected int defaultSeeds() {
        return DEFAULT_SEEDS;
    }

    @TestFactory
    Stream<DynamicTest> every_seed_behaves_as_on_the_in_memory_store() {
        SimulationOptions options = SimulationOptions.builder().replayCommand(replayCommand()).build();
        return Arrays.stream(Seeds.fromSystemProperties(defaultSeeds())).mapToObj(seed ->
                DynamicTest.dynamicTest("seed " + seed, () -> {
                    QueueName queue = QueueName.of("differential-" + seed + "-" + System.nanoTime());
                    VirtualClock referenceClock = new VirtualClock();
                    VirtualClock redisClock = new VirtualClock();
                    try (InMemoryTaskStoreFactory reference = new InMemoryTaskStoreFactory(referenceClock)) {
                        Differential.compare(seed,
                                view -> view.map(group -> reference.forGroup(queue, group))
                                        .orElseGet(() -> reference.forQueue(queue)), referenceClock,
                                view -> view.map(group -> redis.forGroup(queue, group, redisClock))
                                        .orElseGet(() -> redis.forQueue(queue, redisClock)), redisClock, options);
                    }
                }));
    }

    @AfterAll
    void closeFactory() {
        redis.close();
    }
}
