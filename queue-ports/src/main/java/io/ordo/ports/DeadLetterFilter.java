package io.ordo.ports;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.Validate;

import java.time.Instant;

/**
 * Which dead letters a search wants ({@link TaskListing#findDeadLetters}); each part null for any. Checked here
 * once for every store.
 *
 * @param reasonContains text its reason holds, ignoring the case of ASCII letters (1..{@value #MAX_REASON_TEXT} characters)
 * @param partition      its partition
 * @param diedFrom       it died at or after this time
 * @param diedBefore     it died before this time
 */
public record DeadLetterFilter(String reasonContains, Partition partition, Instant diedFrom, Instant diedBefore) {
    public static final int MAX_REASON_TEXT = 200;
    /** Every dead letter. */
    public static final DeadLetterFilter ANY = new DeadLetterFilter(null, null, null, null);

    public DeadLetterFilter {
        if (reasonContains != null) {
            Validate.freeText("reasonContains", reasonContains, MAX_REASON_TEXT);
            if (reasonContains.isEmpty()) {
                throw new InvalidInputException("reasonContains", "must not be empty (null: any reason)");
            }
        }
        if (diedFrom != null && diedBefore != null && !diedFrom.isBefore(diedBefore)) {
            throw new InvalidInputException("diedBefore", "must be after diedFrom (" + diedFrom + "), was " + diedBefore);
        }
    }

    public DeadLetterFilter reasonContains(String text) {
        return new DeadLetterFilter(text, partition, diedFrom, diedBefore);
    }

    public DeadLetterFilter partition(Partition only) {
        return new DeadLetterFilter(reasonContains, only, diedFrom, diedBefore);
    }

    public DeadLetterFilter diedFrom(Instant from) {
        return new DeadLetterFilter(reasonContains, partition, from, diedBefore);
    }

    public DeadLetterFilter diedBefore(Instant before) {
        return new DeadLetterFilter(reasonContains, partition, diedFrom, before);
    }

    /** Whether it matches: the rule every store applies (the Redis function {@code find_dead_letters} as written here). */
    public boolean matches(DeadLetter letter) {
        return (partition == null || partition.equals(letter.task().partition()))
                && (diedFrom == null || letter.deadAt() >= diedFrom.toEpochMilli())
                && (diedBefore == null || letter.deadAt() < diedBefore.toEpochMilli())
                && (reasonContains == null || asciiLowerCase(letter.reason() == null ? "" : letter.reason())
                .contains(asciiLowerCase(reasonContains)));
    }

    /** Only A..Z lowered: the same on every store, whatever its locale (Lua's {@code string.lower} in Redis's C locale). */
    private static String asciiLowerCase(String text) {
        StringBuilder lowered = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            lowered.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return lowered.toString();
    }
}
