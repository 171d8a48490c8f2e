package io.ordo.cli;

/**
 * Text from task data made safe to print on a terminal. A payload, reason, id or header may hold
 * escape sequences (clear the screen, set the window title), carriage returns and line breaks (fake a
 * line of output) or bidirectional overrides (show text reversed). Each such character is printed as
 * a visible escape instead: {@code \n}, {@code \r}, {@code \t}, {@code \x1b}, {@code \u202e}.
 * Backslashes are left as they are, so JSON stays readable (docs/security.md).
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** {@code text} with every character that could act on the terminal escaped; "null" for null. */
    public static String escape(Object value) {
        String text = String.valueOf(value);
        if (text.codePoints().noneMatch(TerminalText::acts)) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(codePoint -> {
            if (!acts(codePoint)) {
                escaped.appendCodePoint(codePoint);
            } else if (codePoint == '\n') {
                escaped.append("\\n");
            } else if (codePoint == '\r') {
                escaped.append("\\r");
            } else if (codePoint == '\t') {
                escaped.append("\\t");
            } else if (codePoint <= 0xFF) {
                escaped.append(String.format("\\x%02x", codePoint));
            } else {
                escaped.append(String.format("\\u%04x", codePoint));
            }
        });
        return escaped.toString();
    }

    /**
     * C0 and C1 controls and DEL (escape sequences, CR, LF, BS...), line and paragraph separators, the
     * bidirectional marks, embeddings, overrides and isolates, and a lone surrogate (it prints as garbage).
     */
    private static boolean acts(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.CONTROL || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE
                || codePoint == 0x061C || codePoint == 0x200E || codePoint == 0x200F
                || (codePoint >= 0x202A && codePoint <= 0x202E) || (codePoint >= 0x2066 && codePoint <= 0x2069);
    }
}
