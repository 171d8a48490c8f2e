package io.ordo.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each line of the assembled library comes from, so that a Redis error's
 * {@code user_function:<line>} can name the script file and line a reader opens ({@code reclaim.lua:42}).
 */
final class SourceMap {
    /** How Redis names a place in a function library in its errors. */
    private static final Pattern LIBRARY_LINE = Pattern.compile("user_function:(\\d+)");

    /** Lines {@code firstLine…} of the library are lines {@code fileFirstLine…} of {@code file}. */
    private record Segment(int firstLine, String file, int fileFirstLine) {
    }

    private final List<Segment> segments;
    private final int lines;

    private SourceMap(List<Segment> segments, int lines) {
        this.segments = List.copyOf(segments);
        this.lines = lines;
    }

    /** {@code file:line} of a line of the library (1-based), or null outside it. */
    String place(int libraryLine) {
        if (libraryLine < 1 || libraryLine > lines) {
            return null;
        }
        Segment found = null;
        for (Segment segment : segments) {
            if (segment.firstLine() > libraryLine) {
                break;
            }
            found = segment;
        }
        return found == null ? null : found.file() + ":" + (found.fileFirstLine() + libraryLine - found.firstLine());
    }

    /** The message with every {@code user_function:<line>} replaced by the file and line it names. */
    String locate(String message) {
        if (message == null) {
            return null;
        }
        Matcher matcher = LIBRARY_LINE.matcher(message);
        StringBuilder located = new StringBuilder();
        while (matcher.find()) {
            String place = place(Integer.parseInt(matcher.group(1)));
            matcher.appendReplacement(located, Matcher.quoteReplacement(place == null ? matcher.group() : place));
        }
        matcher.appendTail(located);
        return located.toString();
    }

    /** Builds the library's text and its map together. */
    static final class Builder {
        private final StringBuilder text = new StringBuilder();
        private final List<Segment> segments = new ArrayList<>();
        private int nextLine = 1;

        /** Appends {@code part}, whose first line is line {@code fileFirstLine} of {@code file}. */
        Builder append(String part, String file, int fileFirstLine) {
            segments.add(new Segment(nextLine, file, fileFirstLine));
            text.append(part);
            nextLine += (int) part.chars().filter(c -> c == '\n').count();
            return this;
        }

        String text() {
            return text.toString();
        }

        SourceMap build() {
            return new SourceMap(segments, nextLine - 1);
        }
    }
}
