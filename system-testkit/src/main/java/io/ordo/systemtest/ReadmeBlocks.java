package io.ordo.systemtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/** The code a README section shows, and the code a test marks as what it shows: compared line by line, trimmed. */
public final class ReadmeBlocks {
    private ReadmeBlocks() {
    }

    /**
     * The trimmed, non-blank lines after the first line that is {@code begin} and before the next {@code end}.
     *
     * @throws AssertionError when either line is missing
     */
    public static List<String> between(String begin, String end, List<String> lines) {
        List<String> trimmed = lines.stream().map(String::strip).toList();
        int from = trimmed.indexOf(begin) + 1;
        if (from == 0) {
            throw new AssertionError("no line '" + begin + "'");
        }
        int length = trimmed.subList(from, trimmed.size()).indexOf(end);
        if (length < 0) {
            throw new AssertionError("no line '" + end + "' after '" + begin + "'");
        }
        return trimmed.subList(from, from + length).stream().filter(line -> !line.isEmpty()).toList();
    }

    /**
     * The first block fenced by {@code fence} (e.g. {@code ```java}) in the README's section whose heading is
     * {@code heading} (e.g. {@code ## In code}), as {@link #between} gives it.
     */
    public static List<String> inSection(String heading, String fence) {
        List<String> readme = readme();
        int section = readme.indexOf(heading);
        if (section < 0) {
            throw new AssertionError("README.md has no heading '" + heading + "'");
        }
        return between(fence, "```", readme.subList(section, readme.size()));
    }

    /** README.md's lines. */
    public static List<String> readme() {
        try {
            return Files.readAllLines(ProjectFiles.projectRoot().resolve("README.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
