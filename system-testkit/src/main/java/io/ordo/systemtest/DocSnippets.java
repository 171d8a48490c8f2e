package io.ordo.systemtest;

import java.util.List;

/**
 * How a document's code block is checked against the test that runs it: the test's lines between two
 * marker comments and the document's lines between its fences compare equal, trimmed and without blank lines.
 */
public final class DocSnippets {
    private DocSnippets() {
    }

    /** The trimmed, non-blank lines after the first line that is {@code begin} and before the next {@code end}. */
    public static List<String> between(String begin, String end, List<String> lines) {
        List<String> trimmed = lines.stream().map(String::strip).toList();
        int from = trimmed.indexOf(begin) + 1;
        if (from <= 0) {
            throw new AssertionError("no line '" + begin + "'");
        }
        int length = trimmed.subList(from, trimmed.size()).indexOf(end);
        if (length < 0) {
            throw new AssertionError("no line '" + end + "' after '" + begin + "'");
        }
        return trimmed.subList(from, from + length).stream().filter(line -> !line.isEmpty()).toList();
    }
}
