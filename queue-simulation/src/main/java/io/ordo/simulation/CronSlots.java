package io.ordo.simulation;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The slots of the cron expressions {@link ScheduleSteps} draws, read here without the stores' cron
 * library so the checker does not take its answers on trust: the minute and hour fields are {@code *},
 * {@code *}{@code /n}, {@code a}, {@code a-b} or lists of them; the other three fields are {@code *}. A slot
 * is every whole minute whose wall time in the zone matches (a repeated hour gives two, a skipped hour none).
 */
final class CronSlots {
    private static final long MINUTE = 60_000;
    /** How far ahead the next slot is looked for: every expression drawn matches within two hours. */
    private static final long HORIZON = 2 * 24 * 60 * MINUTE;

    private final boolean[] minutes;
    private final boolean[] hours;
    private final ZoneId zone;

    CronSlots(String expression, ZoneId zone) {
        String[] fields = expression.trim().split("\\s+");
        if (fields.length != 5 || !fields[2].equals("*") || !fields[3].equals("*") || !fields[4].equals("*")) {
            throw new IllegalArgumentException("the simulation reads minute and hour fields only: " + expression);
        }
        this.minutes = field(fields[0], 60);
        this.hours = field(fields[1], 24);
        this.zone = zone;
    }

    /** The slots in {@code (after, limit]}, latest first, at most {@code max}. */
    List<Long> latest(long after, long limit, int max) {
        List<Long> slots = new ArrayList<>();
        for (long minute = Math.floorDiv(limit, MINUTE) * MINUTE; minute > after && slots.size() < max; minute -= MINUTE) {
            if (matches(minute)) {
                slots.add(minute);
            }
        }
        return slots;
    }

    /** The first slot after {@code from}, or -1 when none within {@link #HORIZON}. */
    long next(long from) {
        for (long minute = Math.floorDiv(from, MINUTE) * MINUTE + MINUTE; minute <= from + HORIZON; minute += MINUTE) {
            if (matches(minute)) {
                return minute;
            }
        }
        return -1;
    }

    private boolean matches(long minute) {
        ZonedDateTime wall = Instant.ofEpochMilli(minute).atZone(zone);
        return minutes[wall.getMinute()] && hours[wall.getHour()];
    }

    private static boolean[] field(String text, int size) {
        boolean[] values = new boolean[size];
        for (String part : text.split(",")) {
            if (part.equals("*")) {
                java.util.Arrays.fill(values, true);
            } else if (part.startsWith("*/")) {
                int step = Integer.parseInt(part.substring(2));
                for (int value = 0; value < size; value += step) {
                    values[value] = true;
                }
            } else if (part.contains("-")) {
                String[] range = part.split("-");
                for (int value = Integer.parseInt(range[0]); value <= Integer.parseInt(range[1]); value++) {
                    values[value] = true;
                }
            } else {
                values[Integer.parseInt(part)] = true;
            }
        }
        return values;
    }
}
