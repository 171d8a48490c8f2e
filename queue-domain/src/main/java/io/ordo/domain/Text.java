package io.ordo.domain;

/**
 * Character-level helpers for user text. Java strings are UTF-16 and may hold unpaired surrogates,
 * which no Unicode encoding can represent: every store keeps text as UTF-8, so such a string would
 * come back changed (and collide with another). Ordo refuses them in user input and replaces them
 * only in text it builds itself from exception messages.
 */
public final class Text {
    /** The character put in place of an unpaired surrogate in text Ordo builds itself. */
    public static final char REPLACEMENT = '\uFFFD';

    private Text() {
    }

    /** The index (in chars) of the first unpaired surrogate of {@code text}, or -1 when there is none. */
    public static int firstUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return i;
            }
            if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code text} with every unpaired surrogate replaced by U+FFFD: for text that came from an exception. */
    public static String withUnpairedSurrogatesReplaced(String text) {
        if (firstUnpairedSurrogate(text) < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(codePoint -> {
            if (Character.getType(codePoint) == Character.SURROGATE) {
                out.append(REPLACEMENT);
            } else {
                out.appendCodePoint(codePoint);
            }
        });
        return out.toString();
    }

    /** The first {@code maxCodePoints} characters of {@code text}: never ends inside a surrogate pair. */
    public static String prefix(String text, int maxCodePoints) {
        if (maxCodePoints < 0) {
            throw new IllegalArgumentException("maxCodePoints must not be negative, was " + maxCodePoints);
        }
        if (text.length() <= maxCodePoints) {
            return text;
        }
        int count = text.codePointCount(0, text.length());
        return count <= maxCodePoints ? text : text.substring(0, text.offsetByCodePoints(0, maxCodePoints));
    }

    /**
     * {@code text} shortened to at most {@code maxCodePoints} characters, the last being an ellipsis
     * when anything was cut; the cut falls between characters (code points), never inside one.
     */
    public static String truncate(String text, int maxCodePoints) {
        if (text.length() <= maxCodePoints || text.codePointCount(0, text.length()) <= maxCodePoints) {
            return text;
        }
        return prefix(text, maxCodePoints - 1) + "\u2026";
    }

    /** {@code U+XXXX} for a message. */
    static String describe(int codePoint) {
        return String.format("U+%04X", codePoint);
    }
}
