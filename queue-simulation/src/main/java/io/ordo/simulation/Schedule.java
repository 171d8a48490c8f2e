package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A random but replayable sequence of steps over a few consumers and partitions: the same seed
 * always gives the same schedule. The generator follows the virtual time and each consumer's
 * registration so heartbeats mostly arrive in time (and sometimes, on purpose, do not), and a
 * crashed consumer makes no calls until it is revived.
 *
 * <p>The schedule ends with a drain: every consumer back, queue resumed, blocks lifted, the clock
 * moved an hour on, a reclaim, and one consumer taking and acking everything that is left.
 */
public final class Schedule {
    /** How far the closing drain moves the clock: past every delay, block, TTL and timeout the generator uses. */
    static final long DRAIN_ADVANCE_MILLIS = Duration.ofHours(1).toMillis();

    private final long seed;
    private final QueueSettings settings;
    private final List<ConsumerId> consumers;
    private final List<Partition> partitions;
    private final List<Step> steps;

    private Schedule(long seed, QueueSettings settings, List<ConsumerId> consumers, List<Partition> partitions,
                     List<Step> steps) {
        this.seed = seed;
        this.settings = settings;
        this.consumers = List.copyOf(consumers);
        this.partitions = List.copyOf(partitions);
        this.steps = List.copyOf(steps);
    }

    /** The schedule of a seed with the default number of steps. */
    public static Schedule generate(long seed) {
        return generate(seed, SimulationOptions.DEFAULT_STEPS);
    }

    /** The schedule of a seed: {@code randomSteps} random steps after the configure step, then the drain. */
    public static Schedule generate(long seed, int randomSteps) {
        return new Generator(seed).generate(randomSteps);
    }

    public long seed() {
        return seed;
    }

    /** The settings the first step configures. */
    public QueueSettings settings() {
        return settings;
    }

    public List<ConsumerId> consumers() {
        return consumers;
    }

    public List<Partition> partitions() {
        return partitions;
    }

    public List<Step> steps() {
        return steps;
    }

    /** One line per step, numbered as in the trace. */
    public String describe() {
        StringBuilder text = new StringBuilder("seed " + seed + "\n");
        for (int i = 0; i < steps.size(); i++) {
            text.append(String.format("%04d %s%n", i, steps.get(i).describe()));
        }
        return text.toString();
    }

    private static final class Generator {
        private final long seed;
        private final SplittableRandom random;
        private final List<ConsumerId> consumers = new ArrayList<>();
        private final List<Partition> partitions = new ArrayList<>();
        private final List<Step> steps = new ArrayList<>();
        /** When each registered consumer expires, as far as the schedule itself determines it. */
        private final Map<ConsumerId, Long> expiresAt = new HashMap<>();
        private final Set<ConsumerId> crashed = new LinkedHashSet<>();
        private QueueSettings settings;
        /** Caps and rate limits, drawn from a stream of their own so the rest of a seed's schedule is as without them. */
        private final SplittableRandom flowLimits;
        private final ScheduleSteps scheduleSteps;
        private long now;
        private boolean paused;
        private int nextId = 1;

        Generator(long seed) {
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.flowLimits = new SplittableRandom(seed ^ 0x5DEECE66DL);
            this.scheduleSteps = new ScheduleSteps(seed);
        }

        Schedule generate(int randomSteps) {
            settings = randomSettings();
            QueueSettings first = settings;
            int consumerCount = 2 + random.nextInt(3);
            for (int i = 0; i < consumerCount; i++) {
                consumers.add(ConsumerId.of("c" + i));
            }
            int regular = 1 + random.nextInt(3);
            int ordered = 1 + random.nextInt(3);
            for (int i = 0; i < regular; i++) {
                partitions.add(Partition.regular("r" + i));
            }
            for (int i = 0; i < ordered; i++) {
                partitions.add(Partition.ordered("o" + i));
            }
            steps.add(new Step.Configure(settings));
            while (steps.size() <= randomSteps) {
                steps.add(next());
            }
            drain();
            return new Schedule(seed, first, consumers, partitions, steps);
        }

        private QueueSettings randomSettings() {
            long ttl = pick(2_000L, 5_000L, 5_000L, 10_000L);
            QueueSettings.Builder builder = QueueSettings.builder()
                    .maxAttempts(pick(1, 2, 3, 3, 5))
                    .heartbeatTtl(Duration.ofMillis(ttl));
            if (chance(0.25)) {
                builder.processingTimeout(Duration.ofMillis(1_500 + random.nextInt(4_500)));
            }
            if (chance(0.25)) {
                builder.dedupWindow(Duration.ofMillis(3_000));
            }
            return withFlowLimits(builder);
        }

        /** Caps in about a third of the seeds, rate limits in some; the same draws whenever they are made. */
        private QueueSettings withFlowLimits(QueueSettings.Builder builder) {
            SplittableRandom caps = flowLimits;
            if (caps.nextDouble() < 0.3) {
                builder.partitionConcurrency(caps.nextInt(3));
                if (caps.nextDouble() < 0.5) {
                    builder.queueConcurrency(1 + caps.nextInt(5));
                }
                if (caps.nextDouble() < 0.3) {
                    builder.partitionConcurrencyOverrides(Map.of(Partition.regular("r0"), 1 + caps.nextInt(3)));
                }
            }
            if (caps.nextDouble() < 0.25) {
                builder.partitionRateLimit(new RateLimit(1 + caps.nextInt(2), Duration.ofMillis(500 + caps.nextInt(1500)),
                        1 + caps.nextInt(3)));
            }
            if (caps.nextDouble() < 0.2) {
                builder.queueRateLimit(new RateLimit(1 + caps.nextInt(3), Duration.ofMillis(500 + caps.nextInt(1000)),
                        1 + caps.nextInt(4)));
            }
            return builder.build();
        }

        private Step next() {
            if (scheduleSteps.next()) {
                Step step = scheduleSteps.step(partitions);
                if (step instanceof Step.FireSchedules fire) {
                    now += fire.advanceMillis();
                }
                return step;
            }
            // Seeds with flow limits sometimes change them mid-run: new caps and limits, the rest as it was.
            if ((settings.hasConcurrencyCaps() || settings.hasRateLimits()) && flowLimits.nextDouble() < 0.02) {
                settings = withFlowLimits(settings.toBuilder().partitionConcurrency(0).queueConcurrency(0)
                        .partitionConcurrencyOverrides(Map.of()).partitionRateLimit(RateLimit.OFF)
                        .queueRateLimit(RateLimit.OFF));
                return new Step.Configure(settings);
            }
            // A live consumer close to expiry usually heartbeats first; sometimes it misses, so reclaim has work.
            for (ConsumerId consumer : consumers) {
                Long expiry = expiresAt.get(consumer);
                if (!crashed.contains(consumer) && expiry != null && expiry - now < ttl() / 3 && chance(0.8)) {
                    return heartbeat(consumer, ttl());
                }
            }
            double[] weights = {
                    16, // 0 publish
                    16, // 1 consume
                    20, // 2 ack
                    6, // 3 reject
                    2.5, // 4 fail
                    2.5, // 5 release
                    2, // 6 heartbeat
                    12, // 7 advance
                    5, // 8 reclaim
                    alive().size() > 1 ? 1.2 : 0, // 9 crash
                    crashed.isEmpty() ? 0 : 4, // 10 revive
                    2.5, // 11 cancel
                    1.5, // 12 block
                    1.2, // 13 unblock
                    paused ? 0 : 0.4, // 14 pause
                    paused ? 15 : 0, // 15 resume
                    1.2, // 16 redrive
                    0.25, // 17 redrive all
                    0.5, // 18 purge
                    0.15, // 19 purge all
            };
            switch (weighted(weights)) {
                case 0:
                    return publish();
                case 1:
                    return consume();
                case 2:
                    return new Step.Ack(anyAlive(), selector());
                case 3:
                    return new Step.Reject(anyAlive(), selector(), chance(0.5) ? 0 : 1 + random.nextInt(2_000),
                            chance(0.85) ? 0 : 500 + random.nextInt(2_500));
                case 4:
                    return new Step.Fail(anyAlive(), selector());
                case 5:
                    return new Step.Release(anyAlive(), selector());
                case 6:
                    return heartbeat(anyAlive(), chance(0.8) ? ttl() : ttl() / 2);
                case 7:
                    return advance();
                case 8:
                    return reclaim();
                case 9: {
                    List<ConsumerId> alive = alive();
                    ConsumerId consumer = alive.get(random.nextInt(alive.size()));
                    crashed.add(consumer);
                    return new Step.Crash(consumer);
                }
                case 10: {
                    List<ConsumerId> down = new ArrayList<>(crashed);
                    ConsumerId consumer = down.get(random.nextInt(down.size()));
                    crashed.remove(consumer);
                    return new Step.Revive(consumer, chance(0.5));
                }
                case 11:
                    return new Step.Cancel(1 + random.nextInt(2), random.nextLong());
                case 12:
                    return new Step.Block(anyPartition(), 200 + random.nextInt(3_800));
                case 13:
                    return new Step.Unblock(anyPartition());
                case 14:
                    paused = true;
                    return new Step.Pause();
                case 15:
                    paused = false;
                    return new Step.Resume();
                case 16:
                    return new Step.Redrive(1 + random.nextInt(3), random.nextLong());
                case 17:
                    return new Step.RedriveAll();
                case 18:
                    return new Step.Purge(1 + random.nextInt(2), random.nextLong());
                default:
                    return new Step.PurgeAll();
            }
        }

        private Step publish() {
            int size = chance(0.6) ? 1 : chance(0.9) ? 2 + random.nextInt(3) : 8;
            List<Step.TaskSpec> tasks = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int priority = pick(0, 0, 0, 0, 0, 1, 3, -2);
                if (chance(0.01)) {
                    priority = chance(0.5) ? Priority.MAX : Priority.MIN;
                }
                long delay = chance(0.75) ? 0 : 1 + random.nextInt(3_000);
                tasks.add(new Step.TaskSpec("t" + nextId++, anyPartition(), priority, delay, chance(0.08),
                        random.nextLong()));
            }
            return new Step.Publish(tasks);
        }

        private Step consume() {
            ConsumerId consumer = anyAlive();
            register(consumer, Math.max(expiresAt.getOrDefault(consumer, Long.MIN_VALUE), now + ttl()));
            return new Step.Consume(consumer, pick(1, 1, 2, 3, 5));
        }

        private Step heartbeat(ConsumerId consumer, long ttl) {
            register(consumer, now + ttl);
            return new Step.Heartbeat(consumer, ttl);
        }

        private Step advance() {
            long millis;
            double roll = random.nextDouble();
            if (roll < 0.55) {
                millis = 1 + random.nextInt(400);
            } else if (roll < 0.95) {
                millis = 400 + random.nextInt(2_600);
            } else {
                millis = ttl() + random.nextInt((int) ttl() / 2 + 1);
            }
            now += millis;
            return new Step.Advance(millis);
        }

        private Step reclaim() {
            expiresAt.values().removeIf(expiry -> expiry <= now);
            return new Step.Reclaim();
        }

        private void drain() {
            for (ConsumerId consumer : new ArrayList<>(crashed)) {
                steps.add(new Step.Revive(consumer, false));
            }
            crashed.clear();
            if (paused) {
                steps.add(new Step.Resume());
                paused = false;
            }
            for (Partition partition : partitions) {
                steps.add(new Step.Unblock(partition));
            }
            now += DRAIN_ADVANCE_MILLIS;
            steps.add(new Step.Advance(DRAIN_ADVANCE_MILLIS));
            steps.add(reclaim());
            if (scheduleSteps.emitted()) { // the slots fallen due in the last hour, drained with the rest
                steps.add(new Step.FireSchedules(2, 0));
            }
            if (settings.hasRateLimits()) { // the drain takes everything in one go
                steps.add(new Step.Configure(settings.toBuilder().queueRateLimit(RateLimit.OFF)
                        .partitionRateLimit(RateLimit.OFF).build()));
            }
            steps.add(new Step.Drain(consumers.get(0)));
        }

        private void register(ConsumerId consumer, long expiry) {
            expiresAt.put(consumer, expiry);
        }

        private Selector selector() {
            double roll = random.nextDouble();
            Selector.Kind kind = roll < 0.6 ? Selector.Kind.FIRST : roll < 0.9 ? Selector.Kind.ANY : Selector.Kind.FOREIGN;
            return new Selector(kind, 1 + random.nextInt(4), random.nextLong());
        }

        private long ttl() {
            return settings.heartbeatTtl().toMillis();
        }

        private List<ConsumerId> alive() {
            List<ConsumerId> alive = new ArrayList<>(consumers);
            alive.removeAll(crashed);
            return alive;
        }

        private ConsumerId anyAlive() {
            List<ConsumerId> alive = alive();
            return alive.get(random.nextInt(alive.size()));
        }

        private Partition anyPartition() {
            return partitions.get(random.nextInt(partitions.size()));
        }

        private boolean chance(double probability) {
            return random.nextDouble() < probability;
        }

        private int weighted(double[] weights) {
            double total = 0;
            for (double weight : weights) {
                total += weight;
            }
            double roll = random.nextDouble() * total;
            for (int i = 0; i < weights.length; i++) {
                roll -= weights[i];
                if (roll < 0) {
                    return i;
                }
            }
            return weights.length - 1;
        }

        private int pick(int... values) {
            return values[random.nextInt(values.length)];
        }

        private long pick(long... values) {
            return values[random.nextInt(values.length)];
        }
    }
}
