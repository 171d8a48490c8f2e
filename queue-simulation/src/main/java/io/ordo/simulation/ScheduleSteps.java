package io.ordo.simulation;

import io.ordo.domain.MisfirePolicy;
import io.ordo.domain.Partition;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The schedule steps of a seed's run (put, replace, remove, fire), drawn from a stream of their own so
 * a seed's other steps are drawn as they were without them. Schedule ids come from a small pool, so puts
 * often replace and removes usually find their schedule; cron expressions stay within what
 * {@link CronSlots} reads; a fire sometimes moves the clock by minutes, past cron slots and out of a
 * misfire policy's grace.
 */
final class ScheduleSteps {
    private static final String[] IDS = {"s0", "s1", "s2"};
    private static final String[] CRONS = {"* * * * *", "*/2 * * * *", "7,37 * * * *", "0 * * * *",
            "15-20 * * * *", "*/5 */2 * * *", "30 * * * *"};
    /** UTC and zones whose offsets are not whole hours, so minute fields read in the zone matter. */
    private static final String[] ZONES = {"UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns"};
    private static final long[] INTERVALS = {1_000, 1_500, 2_500, 5_000, 20_000, 60_000};

    private final SplittableRandom random;
    private final boolean used;
    private int version;
    private boolean emitted;

    ScheduleSteps(long seed) {
        this.random = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        this.used = random.nextDouble() < 0.6;
    }

    /** Whether the next step is a schedule step. */
    boolean next() {
        return used && random.nextDouble() < 0.07;
    }

    /** Whether any schedule step was drawn: the drain then fires once more first. */
    boolean emitted() {
        return emitted;
    }

    Step step(List<Partition> partitions) {
        emitted = true;
        double roll = random.nextDouble();
        if (roll < 0.4) {
            return new Step.PutSchedule(spec(partitions));
        }
        if (roll < 0.5) {
            return new Step.RemoveSchedule(IDS[random.nextInt(IDS.length)]);
        }
        double advance = random.nextDouble();
        long millis = advance < 0.4 ? 0 : advance < 0.7 ? 1 + random.nextInt(3_000) : 20_000 + random.nextInt(130_000);
        return new Step.FireSchedules(1 + random.nextInt(3), millis);
    }

    private Step.ScheduleSpec spec(List<Partition> partitions) {
        String id = IDS[random.nextInt(IDS.length)];
        boolean cron = random.nextDouble() < 0.45;
        Partition partition = partitions.get(random.nextInt(partitions.size()));
        int priority = new int[] {0, 0, 1, -2}[random.nextInt(4)];
        double policy = random.nextDouble();
        MisfirePolicy misfire = policy < 0.4 ? MisfirePolicy.skip()
                : policy < 0.7 ? MisfirePolicy.runOnce() : MisfirePolicy.catchUp(1 + random.nextInt(4));
        Long start = random.nextDouble() < 0.4 ? (long) (random.nextInt(210_000) - 180_000) : null;
        Long end = null;
        if (random.nextDouble() < 0.2) {
            end = (start == null ? 0 : Math.max(0, start)) + 5_000 + random.nextInt(595_000);
        }
        return new Step.ScheduleSpec(id, cron ? CRONS[random.nextInt(CRONS.length)] : null,
                cron ? ZONES[random.nextInt(ZONES.length)] : null, cron ? 0 : INTERVALS[random.nextInt(INTERVALS.length)],
                partition, priority, misfire, start, end, ++version);
    }
}
