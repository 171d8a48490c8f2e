package io.ordo.domain;

import java.time.Duration;

/**
 * What a schedule does with the slots that fell due while nothing fired it (no worker ran, the queue's
 * store was away): docs/semantics.md, "Schedules".
 *
 * @param kind    which of the three policies
 * @param maxRuns for {@link Kind#CATCH_UP}: at most this many of the missed slots run (the latest ones),
 *                1..{@link #MAX_CATCH_UP}; 1 for the others
 */
public record MisfirePolicy(Kind kind, int maxRuns) {
    /** A slot counts as missed when it is found more than this long after it fell due. */
    public static final Duration GRACE = Duration.ofMinutes(1);
    public static final int MAX_CATCH_UP = 1000;

    public enum Kind {
        /** Missed slots are skipped; only a slot found within {@link MisfirePolicy#GRACE} of its time runs. */
        SKIP,
        /** One task runs for all the slots missed (the latest slot's). */
        RUN_ONCE,
        /** Up to {@code maxRuns} of the missed slots run, the latest ones, oldest first. */
        CATCH_UP
    }

    public MisfirePolicy {
        Validate.notNull("misfire", kind);
        if (kind == Kind.CATCH_UP) {
            Validate.range("misfire.maxRuns", maxRuns, 1, MAX_CATCH_UP);
        } else if (maxRuns != 1) {
            throw new InvalidInputException("misfire.maxRuns", "is 1 unless the policy is CATCH_UP, was " + maxRuns);
        }
    }

    public static MisfirePolicy skip() {
        return new MisfirePolicy(Kind.SKIP, 1);
    }

    public static MisfirePolicy runOnce() {
        return new MisfirePolicy(Kind.RUN_ONCE, 1);
    }

    public static MisfirePolicy catchUp(int maxRuns) {
        return new MisfirePolicy(Kind.CATCH_UP, maxRuns);
    }

    /** {@code skip}, {@code once} or {@code catch-up:N}, as the CLI writes it. */
    @Override
    public String toString() {
        return switch (kind) {
            case SKIP -> "skip";
            case RUN_ONCE -> "once";
            case CATCH_UP -> "catch-up:" + maxRuns;
        };
    }

    /** Reads what {@link #toString} writes. */
    public static MisfirePolicy parse(String text) {
        Validate.notNull("misfire", text);
        if (text.equals("skip")) {
            return skip();
        }
        if (text.equals("once")) {
            return runOnce();
        }
        if (text.startsWith("catch-up:")) {
            try {
                return catchUp(Integer.parseInt(text.substring("catch-up:".length())));
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        throw new InvalidInputException("misfire", "is skip, once or catch-up:N (N in 1.." + MAX_CATCH_UP
                + "), was '" + text + "'");
    }
}
