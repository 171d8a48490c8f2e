package io.ordo.domain;

/**
 * How far a handler says it has come with a task: a percentage and a short message, both its own words
 * (docs/task-control.md). Small by design: it rides on heartbeats.
 *
 * @param percent 0..100
 * @param message at most {@value #MAX_MESSAGE_LENGTH} characters, possibly empty
 */
public record Progress(int percent, String message) {
    public static final int MAX_MESSAGE_LENGTH = 200;

    public Progress {
        Validate.range("progress.percent", percent, 0, 100);
        Validate.freeText("progress.message", message, MAX_MESSAGE_LENGTH);
    }

    public static Progress of(int percent) {
        return new Progress(percent, "");
    }
}
