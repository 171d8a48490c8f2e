package io.ordo.systemtest;

import java.util.List;

/**
 * Code the documentation shows, compared as the tests see it: a page's code block against the lines
 * between two marker comments in the code that runs, so a page cannot drift from what is tested.
 */
public final class DocSnippets {
    private DocSnippets() {
    }

    /**
     * The trimmed, non-blank lines after the first line that is {@code begin} and before the next {@code end}
     * (both compared trimmed); throws when either line is missing.
     */
    public static List<String> between(String begin, String end, List<String> lines) {
        List<String> trimmed = lines.stream().map(String::strip).toList();
        int from = trimmed.indexOf(begin) + 1;
        if (from <= 0) {
            throw new IllegalStateException("no line '" + begin + "'");
        }
        int length = trimmed.subList(from, trimmed.size()).indexOf(end);
        if (length < 0) {
            throw new IllegalStateException("no line '" + end + "' after '" + begin + "'");
        }
        return trimmed.subList(from, from + length).stream().filter(line -> !line.isEmpty()).toList();
    }

    /**
     * The first code block fenced as {@code fence} (e.g. {@code ```java}) after the line {@code heading}, as
     * {@link #between} gives it; throws when the heading or the block is missing.
     */
    public static List<String> blockAfter(String heading, String fence, List<String> lines) {
        int section = lines.indexOf(heading);
        if (section < 0) {
            throw new IllegalStateException("no line '" + heading + "'");
        }
        return between(fence, "```", lines.subList(section, lines.size()));
    }
}
