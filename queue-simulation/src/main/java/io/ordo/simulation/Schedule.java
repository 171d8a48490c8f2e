package io.ordo.simulation;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.GroupName;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueSettings;
import io.ordo.domain.RateLimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A random but replayable sequence of steps over a few consumers and partitions: the same seed
 * always gives the same schedule. The generator follows the virtual time and each consumer's
 * registration so heartbeats mostly arrive in time (and sometimes, on purpose, do not), and a
 * crashed consumer makes no calls until it is revived.
 *
 * <p>Some seeds have consumer groups ({@link GroupSteps}): groups created and deleted, and the steps that
 * go through a store made through a group's store (a view of the queue's) as well as the queue's own.
 *
 * <p>The schedule ends with a drain: every consumer back, every view resumed, blocks lifted, the clock
 * moved an hour on, a reclaim, and one consumer taking and acking everything that is left in each view.
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

    /**
     * The schedule of a seed: {@code randomSteps} random steps after the configure step, then the drain; in
     * some seeds with consumer groups.
     */
    public static Schedule generate(long seed, int randomSteps) {
        return generate(seed, randomSteps, true);
    }

    /**
     * The schedule of a seed, with consumer groups in some seeds or in none: without them, every seed's
     * schedule is the one it has with them, less its group steps and with every step made through the
     * queue's own store (and for a seed without groups, the very same).
     */
    public static Schedule generate(long seed, int randomSteps, boolean groups) {
        return new Generator(seed, groups).generate(randomSteps);
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
        /** When each registered consumer expires in each view, as far as the schedule itself determines it. */
        private final Map<Optional<GroupName>, Map<ConsumerId, Long>> expiresAt = new HashMap<>();
        private final Set<ConsumerId> crashed = new LinkedHashSet<>();
        /** The paused views: empty, the queue's own; a group's name, that group. */
        private final Set<Optional<GroupName>> paused = new HashSet<>();
        private QueueSettings settings;
        /** Caps and rate limits, drawn from a stream of their own so the rest of a seed's schedule is as without them. */
        private final SplittableRandom flowLimits;
        /** The caps on the dead letters, drawn from a stream of their own too. */
        private final SplittableRandom deadLetterCaps;
        private final ScheduleSteps scheduleSteps;
        private final GroupSteps groupSteps;
        private final TaskControlSteps taskControl;
        private final EventLogSteps eventLog;
        /**
         * Results kept (docs/task-control.md, "Results"), from a stream of their own: in about a third of the seeds
         * without consumer groups, a retention of 1 to 10 s (the reaper's expiry then deletes them mid-run).
         */
        private final long resultRetentionMillis;
        private long now;
        /** Whether any settings drawn had rate limits (a group may keep them after the queue's are off). */
        private boolean rateLimitsDrawn;
        private int nextId = 1;

        Generator(long seed, boolean groups) {
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.flowLimits = new SplittableRandom(seed ^ 0x5DEECE66DL);
            this.deadLetterCaps = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
            this.scheduleSteps = new ScheduleSteps(seed);
            this.groupSteps = new GroupSteps(seed, groups);
            this.taskControl = new TaskControlSteps(seed);
            this.eventLog = new EventLogSteps(seed);
            SplittableRandom results = new SplittableRandom(seed ^ 0x1B873593L);
            this.resultRetentionMillis = !groupSteps.used() && results.nextDouble() < 0.35 ? 1_000 + results.nextInt(9_001) : 0;
        }

        Schedule generate(int randomSteps) {
            settings = randomSettings().toBuilder().eventLogLength(eventLog.length())
                    .resultRetention(Duration.ofMillis(resultRetentionMillis)).build();
            rateLimitsDrawn = settings.hasRateLimits();
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
            return withDeadLetterCaps(withFlowLimits(builder).toBuilder());
        }

        /**
         * Caps on the dead letters in about a third of the seeds: a count of 1-3, an age of 1-5 s, or both; the
         * same draws whenever they are made.
         */
        private QueueSettings withDeadLetterCaps(QueueSettings.Builder builder) {
            SplittableRandom caps = deadLetterCaps;
            if (caps.nextDouble() < 0.35) {
                double which = caps.nextDouble();
                if (which < 0.7) {
                    builder.deadLetterMaxCount(1 + caps.nextInt(3));
                }
                if (which >= 0.4) {
                    builder.deadLetterMaxAge(Duration.ofMillis(1_000 + caps.nextInt(4_001)));
                }
            }
            return builder.build();
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
                return through(groupSteps.view(), step);
            }
            if (groupSteps.next()) {
                Step step = groupSteps.administer();
                // a deleted group's registrations and pause go with it; one created again starts afresh
                expiresAt.keySet().removeIf(view -> !exists(view));
                paused.removeIf(view -> !exists(view));
                return step;
            }
            Optional<GroupName> view = groupSteps.view();
            if (eventLog.next()) {
                return through(view, new Step.ReadEvents());
            }
            if (taskControl.next() && !alive().isEmpty()) {
                ConsumerId consumer = taskControl.anyOf(alive());
                Step step = taskControl.step(consumer, ttl());
                if (step instanceof Step.ReportProgress) { // a heartbeat: the consumer's registration with it
                    register(view, consumer, now + ttl());
                }
                return through(view, step);
            }
            // Seeds with caps on the dead letters sometimes change them mid-run (a lower count is not applied at
            // once: the next deaths and trims apply it)
            if (settings.hasDeadLetterCaps() && deadLetterCaps.nextDouble() < 0.02) {
                settings = withDeadLetterCaps(settings.toBuilder().deadLetterMaxCount(0).deadLetterMaxAge(Duration.ZERO));
                return through(view, new Step.Configure(settings));
            }
            // Seeds with flow limits sometimes change them mid-run: new caps and limits, the rest as it was.
            if ((settings.hasConcurrencyCaps() || settings.hasRateLimits()) && flowLimits.nextDouble() < 0.02) {
                settings = withFlowLimits(settings.toBuilder().partitionConcurrency(0).queueConcurrency(0)
                        .partitionConcurrencyOverrides(Map.of()).partitionRateLimit(RateLimit.OFF)
                        .queueRateLimit(RateLimit.OFF));
                rateLimitsDrawn |= settings.hasRateLimits();
                return through(view, new Step.Configure(settings));
            }
            // A live consumer close to expiry usually heartbeats first; sometimes it misses, so reclaim has work.
            for (Optional<GroupName> registeredIn : views()) {
                Map<ConsumerId, Long> registrations = registrations(registeredIn);
                for (ConsumerId consumer : consumers) {
                    Long expiry = registrations.get(consumer);
                    if (!crashed.contains(consumer) && expiry != null && expiry - now < ttl() / 3 && chance(0.8)) {
                        return through(registeredIn, heartbeat(registeredIn, consumer, ttl()));
                    }
                }
            }
            boolean pausedView = paused.contains(view);
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
                    pausedView ? 0 : 0.4, // 14 pause
                    pausedView ? 15 : 0, // 15 resume
                    1.2, // 16 redrive
                    0.25, // 17 redrive all
                    0.5, // 18 purge
                    0.15, // 19 purge all
            };
            int kind = weighted(weights);
            return kind == 7 || kind == 9 || kind == 10 ? step(kind, view) : through(view, step(kind, view));
        }

        /** A step of the kind drawn, for the view it goes through (none for advance, crash and revive). */
        private Step step(int kind, Optional<GroupName> view) {
            switch (kind) {
                case 0:
                    return publish();
                case 1:
                    return consume(view);
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
                    return heartbeat(view, anyAlive(), chance(0.8) ? ttl() : ttl() / 2);
                case 7:
                    return advance();
                case 8:
                    return reclaim(view);
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
                    if (exists(view)) {
                        paused.add(view);
                    }
                    return new Step.Pause();
                case 15:
                    paused.remove(view);
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
                        random.nextLong(), taskControl.ownTimeoutMillis()));
            }
            return new Step.Publish(tasks);
        }

        private Step consume(Optional<GroupName> view) {
            ConsumerId consumer = anyAlive();
            register(view, consumer, Math.max(registrations(view).getOrDefault(consumer, Long.MIN_VALUE), now + ttl()));
            return new Step.Consume(consumer, pick(1, 1, 2, 3, 5));
        }

        private Step heartbeat(Optional<GroupName> view, ConsumerId consumer, long ttl) {
            register(view, consumer, now + ttl);
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

        private Step reclaim(Optional<GroupName> view) {
            registrations(view).values().removeIf(expiry -> expiry <= now);
            return new Step.Reclaim();
        }

        /** Every view back to work and the clock past everything, then each view drained (the own first). */
        private void drain() {
            List<GroupName> groups = groupSteps.existing();
            for (ConsumerId consumer : new ArrayList<>(crashed)) {
                steps.add(new Step.Revive(consumer, false));
            }
            crashed.clear();
            if (paused.contains(Optional.<GroupName>empty())) {
                steps.add(new Step.Resume());
            }
            for (GroupName group : groups) {
                if (paused.contains(Optional.of(group))) {
                    steps.add(new Step.InGroup(group, new Step.Resume()));
                }
            }
            paused.clear();
            for (Partition partition : partitions) {
                steps.add(new Step.Unblock(partition));
            }
            for (GroupName group : groups) {
                for (Partition partition : partitions) {
                    steps.add(new Step.InGroup(group, new Step.Unblock(partition)));
                }
            }
            now += DRAIN_ADVANCE_MILLIS;
            steps.add(new Step.Advance(DRAIN_ADVANCE_MILLIS));
            steps.add(reclaim(Optional.empty()));
            for (GroupName group : groups) {
                steps.add(new Step.InGroup(group, reclaim(Optional.of(group))));
            }
            if (scheduleSteps.emitted()) { // the slots fallen due in the last hour, drained with the rest
                steps.add(new Step.FireSchedules(2, 0));
            }
            // the drain takes everything in one go; configured through the queue's own store, every group too
            if (settings.hasRateLimits() || groupSteps.used() && rateLimitsDrawn) {
                steps.add(new Step.Configure(settings.toBuilder().queueRateLimit(RateLimit.OFF)
                        .partitionRateLimit(RateLimit.OFF).build()));
            }
            steps.add(new Step.Drain(consumers.get(0)));
            for (GroupName group : groups) {
                steps.add(new Step.InGroup(group, new Step.Drain(consumers.get(0))));
            }
            if (eventLog.enabled()) {
                steps.add(new Step.ReadEvents());
                for (GroupName group : groups) {
                    steps.add(new Step.InGroup(group, new Step.ReadEvents()));
                }
            }
        }

        /** The step as made through the view's store: the queue's own, or a group's. */
        private static Step through(Optional<GroupName> view, Step step) {
            return view.<Step>map(group -> new Step.InGroup(group, step)).orElse(step);
        }

        /** The queue's own view, then its groups by name. */
        private List<Optional<GroupName>> views() {
            List<Optional<GroupName>> views = new ArrayList<>();
            views.add(Optional.empty());
            groupSteps.existing().forEach(group -> views.add(Optional.of(group)));
            return views;
        }

        /** Whether the view exists: the queue's own always, a group while it is not deleted. */
        private boolean exists(Optional<GroupName> view) {
            return view.isEmpty() || groupSteps.exists(view.get());
        }

        private Map<ConsumerId, Long> registrations(Optional<GroupName> view) {
            return expiresAt.computeIfAbsent(view, v -> new HashMap<>());
        }

        /** A call in a view that does not exist is refused: it registers no one. */
        private void register(Optional<GroupName> view, ConsumerId consumer, long expiry) {
            if (exists(view)) {
                registrations(view).put(consumer, expiry);
            }
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
