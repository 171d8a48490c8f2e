package io.ordo.simulation;

import io.ordo.domain.ConsumerId;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The task control a schedule exercises (docs/task-control.md), in about a third of the seeds: tasks published
 * with a processing timeout of their own, lease extensions, and heartbeats carrying progress. Drawn from a
 * stream of their own, so a seed without them has the very schedule it had before they existed. (Cancelling a
 * task in flight needs no step of its own: a cancel step names held tasks too.)
 */
final class TaskControlSteps {
    private final SplittableRandom random;
    private final boolean enabled;

    TaskControlSteps(long seed) {
        this.random = new SplittableRandom(seed ^ 0x7A5CC0D7L);
        this.enabled = random.nextDouble() < 0.35;
    }

    /** Whether the next step is one of task control. */
    boolean next() {
        return enabled && random.nextDouble() < 0.05;
    }

    /** A published task's own timeout: 0 (the queue's), or 1 to 6 s. */
    long ownTimeoutMillis() {
        return enabled && random.nextDouble() < 0.2 ? 1_000 + random.nextInt(5_000) : 0;
    }

    /** One of the consumers given, chosen on this stream. */
    ConsumerId anyOf(List<ConsumerId> consumers) {
        return consumers.get(random.nextInt(consumers.size()));
    }

    /** An extension (1 to 8 s) or a progress report, of held tasks mostly. */
    Step step(ConsumerId consumer, long ttlMillis) {
        Selector selector = new Selector(random.nextDouble() < 0.85 ? Selector.Kind.ANY : Selector.Kind.FOREIGN,
                1 + random.nextInt(2), random.nextLong());
        if (random.nextDouble() < 0.6) {
            return new Step.ExtendLease(consumer, selector, 1_000 + random.nextInt(7_000));
        }
        return new Step.ReportProgress(consumer, ttlMillis, selector, random.nextInt(101));
    }
}
