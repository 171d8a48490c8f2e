package io.ordo.cli.demo;

import io.ordo.ports.Clock;

import java.io.PrintWriter;
import java.time.Duration;

/** Prints the demo's lines, each stamped with the virtual time since the story began ({@code t+1.000s}). */
final class Narrator {
    private static final String MARGIN = " ".repeat(11);

    private final PrintWriter out;
    private final Clock clock;
    private final long start;

    Narrator(PrintWriter out, Clock clock) {
        this.out = out;
        this.clock = clock;
        this.start = clock.millis();
    }

    void heading(String text) {
        out.println();
        out.println(text);
    }

    /** A step, stamped with the time now. */
    void step(String format, Object... args) {
        out.printf("%-11s%s%n", sinceStart(clock.millis()), String.format(format, args));
    }

    /** A line that belongs to the step above it. */
    void detail(String format, Object... args) {
        out.println(MARGIN + "  " + String.format(format, args));
    }

    void plain(String format, Object... args) {
        out.println(String.format(format, args));
    }

    void flush() {
        out.flush();
    }

    String sinceStart(long epochMillis) {
        return "t+" + seconds(Duration.ofMillis(epochMillis - start));
    }

    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return String.format("%d.%03ds", millis / 1000, millis % 1000);
    }
}
