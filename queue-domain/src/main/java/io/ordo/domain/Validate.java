package io.ordo.domain;

import java.time.Duration;

/** The field checks shared by every value of the model. */
public final class Validate {
    private Validate() {
    }

    /**
     * A name (task id, partition code, consumer, queue, header name): a non-null text of 1..max
     * characters (code points) that displays as what it is. Refused: control characters, format
     * characters (Unicode category Cf: bidirectional overrides and isolates, zero-width characters,
     * the byte order mark, soft hyphens...), line and paragraph separators, and unpaired surrogates
     * (they have no UTF-8 form, so no store could keep them as given).
     */
    public static String text(String field, String value, int max) {
        length(field, value, 1, max);
        for (int i = 0; i < value.length(); ) {
            int codePoint = value.codePointAt(i);
            String problem = displayProblem(codePoint);
            if (problem != null) {
                throw new InvalidInputException(field, "must not contain " + problem + " (found "
                        + Text.describe(codePoint) + " at index " + i + ")");
            }
            i += Character.charCount(codePoint);
        }
        return value;
    }

    /**
     * Free text (header values, reasons): any characters, line breaks and controls included, but no
     * unpaired surrogate (no store could keep it as given); 0..max characters (code points).
     */
    public static String freeText(String field, String value, int max) {
        length(field, value, 0, max);
        wellFormed(field, value);
        return value;
    }

    /** Refuses an unpaired surrogate: it has no UTF-8 form, so a store would keep something else. */
    public static String wellFormed(String field, String value) {
        notNull(field, value);
        int at = Text.firstUnpairedSurrogate(value);
        if (at >= 0) {
            throw new InvalidInputException(field, "must not contain an unpaired surrogate (found "
                    + Text.describe(value.charAt(at)) + " at index " + at + "); it has no UTF-8 form");
        }
        return value;
    }

    private static void length(String field, String value, int min, int max) {
        notNull(field, value);
        if (min > 0 && value.isEmpty()) {
            throw new InvalidInputException(field, "must not be empty");
        }
        int length = value.codePointCount(0, value.length());
        if (length > max) {
            throw new InvalidInputException(field, "must be at most " + max + " characters, was " + length);
        }
    }

    /** What makes a character unfit for a name, or null when it is fit. */
    private static String displayProblem(int codePoint) {
        switch (Character.getType(codePoint)) {
            case Character.CONTROL:
                return "control characters";
            case Character.FORMAT:
                return "format characters (bidirectional controls, zero-width and other invisible characters)";
            case Character.LINE_SEPARATOR:
            case Character.PARAGRAPH_SEPARATOR:
                return "line or paragraph separators";
            case Character.SURROGATE:
                return "an unpaired surrogate (it has no UTF-8 form)";
            default:
                return null;
        }
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
