package io.ordo.system.fault;

import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.ports.TaskPublishing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The chaos drills' producer: each tick three tasks into random regular partitions and one into the next
 * ordered partition, in one call; with poison, the two poison tasks a few seconds in. One thread, so publish
 * order is the order of each ordered partition.
 */
final class ChaosProducer {
    static final String POISON_REGULAR = "poison-regular";
    static final String POISON_ORDERED = "poison-ordered";
    static final Set<String> POISON = Set.of(POISON_REGULAR, POISON_ORDERED);
    private static final Duration TICK = Duration.ofMillis(50);
    private static final int POISON_TICK = 20;

    final List<String> published = new ArrayList<>();
    final Map<String, List<String>> orderedIds = new LinkedHashMap<>();
    private final TaskPublishing store;
    private final Random random;
    private final int regularPartitions;
    private final int orderedPartitions;
    private final boolean poison;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    ChaosProducer(TaskPublishing store, Random random, int regularPartitions, int orderedPartitions, boolean poison) {
        this.store = store;
        this.random = random;
        this.regularPartitions = regularPartitions;
        this.orderedPartitions = orderedPartitions;
        this.poison = poison;
        this.thread = new Thread(this::run, "chaos-producer");
    }

    /** The poison tasks it plants (none without poison). */
    Set<String> poison() {
        return poison ? POISON : Set.of();
    }

    void start() {
        thread.start();
    }

    void stop() throws InterruptedException {
        running.set(false);
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError("the producer failed", failure.get());
        }
    }

    private void run() {
        try {
            for (int tick = 0; running.get(); tick++) {
                List<NewTask> batch = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    String code = "r" + random.nextInt(regularPartitions);
                    batch.add(Drill.task(Partition.regular(code), code + "-" + tick + "-" + i, null));
                }
                String ordered = "o" + tick % orderedPartitions;
                batch.add(ordered(ordered, ordered + "-" + tick, null));
                if (poison && tick == POISON_TICK) {
                    batch.add(Drill.task(Partition.regular("r0"), POISON_REGULAR, Drill.POISON));
                    batch.add(ordered("o0", POISON_ORDERED, Drill.POISON));
                }
                store.publish(batch);
                batch.forEach(task -> published.add(task.id().value()));
                Thread.sleep(TICK.toMillis());
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    private NewTask ordered(String code, String id, String marker) {
        orderedIds.computeIfAbsent(Partition.ordered(code).code(), key -> new ArrayList<>()).add(id);
        return Drill.task(Partition.ordered(code), id, marker);
    }
}
