package io.ordo.lettuce;

import io.ordo.domain.GroupName;
import io.ordo.domain.QueueName;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;
import io.ordo.ports.TaskStore;
import io.ordo.redis.RedisOptions;
import io.ordo.redis.RedisTaskStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Instructions the server spends per drained task, counted by valgrind's callgrind: unlike {@code INFO cpu}
 * on a shared machine, the count repeats to about 1%, so a change to the functions can be judged by it
 * (docs/benchmarks.md, "Inside the C1 drain, counted"). The server runs under callgrind; the counters are
 * zeroed once the queue is filled and dumped once it is drained, so only the drain is counted: acks riding
 * on consumes of {@code ordo.measure.batch} tasks (18, as the harness's C1 calls average) over
 * {@code ordo.measure.partitions} partitions. A measurement, not a test: it runs only with
 * {@code -Dordo.measure.callgrind=true} and needs valgrind.
 * {@code mvn -q -B test -pl adapter-lettuce -am -Dtest=InstructionCountMeasurement -Dordo.measure.callgrind=true
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@EnabledIfSystemProperty(named = "ordo.measure.callgrind", matches = "true")
class InstructionCountMeasurement {
    private static final int TASKS = Integer.getInteger("ordo.measure.tasks", 20_000);
    private static final int BATCH = Integer.getInteger("ordo.measure.batch", 18);
    /**
     * {@code -Dordo.measure.limits=caps}, {@code rates} or {@code all}: the queue has a partition and a queue
     * concurrency cap, a partition and a queue rate limit, or both, none of them low enough to hold a task
     * back, so the count is the cost of keeping them (in-flight counts, buckets) against the same drain
     * without them.
     */
    private static final String LIMITS = System.getProperty("ordo.measure.limits", "none");
    private static final RateLimit NEVER_EMPTY = RateLimit.of(1_000_000, java.time.Duration.ofSeconds(1)).withBurst(1_000_000);

    private static QueueSettings limitsThatNeverBind() {
        QueueSettings.Builder settings = QueueSettings.builder();
        if (LIMITS.equals("caps") || LIMITS.equals("all")) {
            settings.partitionConcurrency(100_000).queueConcurrency(100_000);
        }
        if (LIMITS.equals("rates") || LIMITS.equals("all")) {
            settings.partitionRateLimit(NEVER_EMPTY).queueRateLimit(NEVER_EMPTY);
        }
        return settings.build();
    }

    @Test
    void instructions_per_drained_task() throws Exception {
        try (Callgrind callgrind = Callgrind.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(callgrind.server().uri()))) {
            TaskStore store = factory.forQueue(QueueName.of("measure"));
            if (!LIMITS.equals("none")) {
                store.configure(limitsThatNeverBind());
            }
            MeasuredQueue.fill(store, TASKS, 100);
            callgrind.zero();
            MeasuredQueue.drainAckingOnConsume(store, TASKS, BATCH);
            long instructions = callgrind.instructions();
            System.out.printf("%,d tasks over %,d %s partitions, %d per call%s: %,d instructions per drained task%n",
                    TASKS, MeasuredQueue.PARTITIONS, MeasuredQueue.kind(), BATCH,
                    LIMITS.equals("none") ? "" : ", limits set: " + LIMITS, instructions / TASKS);
        }
    }

    /**
     * Instructions per published task, batches of 100 over the partitions, on a queue with
     * {@code ordo.measure.groups} consumer groups (0: none), counted over the whole fill: the figure G1 of the
     * harness compares by Redis CPU (docs/groups.md).
     */
    @Test
    void instructions_per_published_task() throws Exception {
        int groups = Integer.getInteger("ordo.measure.groups", 0);
        try (Callgrind callgrind = Callgrind.start();
             RedisTaskStoreFactory factory = LettuceTaskStores.factory(RedisOptions.create(callgrind.server().uri()))) {
            TaskStore store = factory.forQueue(QueueName.of("measure"));
            for (int g = 0; g < groups; g++) {
                store.createGroup(GroupName.of("group-" + g));
            }
            MeasuredQueue.fill(store, 1_000, 100); // partitions exist, as in a queue at work
            callgrind.zero();
            MeasuredQueue.fill(store, TASKS, 100);
            long instructions = callgrind.instructions();
            System.out.printf("%,d tasks over %,d %s partitions, 100 per call, %d groups: %,d instructions per published task%n",
                    TASKS, MeasuredQueue.PARTITIONS, MeasuredQueue.kind(), groups, instructions / TASKS);
        }
    }
}
