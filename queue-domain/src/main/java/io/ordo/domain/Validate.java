package io.ordo.domain;

import java.time.Duration;

/** The field checks shared by every value of the model. */
public final class Validate {
    private Validate() {
    }

    /** A non-null text of 1..max characters (code points) without control characters. */
    public static String text(String field, String value, int max) {
        if (value == null) {
            throw new InvalidInputException(field, "must not be null");
        }
        if (value.isEmpty()) {
            throw new InvalidInputException(field, "must not be empty");
        }
        int length = value.codePointCount(0, value.length());
        if (length > max) {
            throw new InvalidInputException(field, "must be at most " + max + " characters, was " + length);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new InvalidInputException(field,
                        "must not contain control characters (found U+" + String.format("%04X", (int) c) + " at index " + i + ")");
            }
        }
        return value;
    }

    public static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new InvalidInputException(field, "must not be null");
        }
        return value;
    }

    public static Duration duration(String field, Duration value, Duration max) {
        notNull(field, value);
        if (value.isNegative()) {
            throw new InvalidInputException(field, "must not be negative, was " + value);
        }
        if (value.compareTo(max) > 0) {
            throw new InvalidInputException(field, "must be at most " + max + ", was " + value);
        }
        return value;
    }

    public static int range(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidInputException(field, "must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }
}
