package io.ordo.cli;

import io.ordo.domain.Labels;
import io.ordo.ports.ListingCursor;
import io.ordo.ports.TaskEvent;
import io.ordo.ports.TaskEventPage;
import io.ordo.ports.TaskEvents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Prints the queue's event log (docs/task-control.md, "Event log"): what became of its tasks, oldest first,
 * from a cursor; with {@code --follow}, goes on printing events as they come.
 *
 * <pre>
 * ordo events --backend lettuce --queue emails --follow
 * </pre>
 */
@Command(name = "events", mixinStandardHelpOptions = true,
        description = {"Prints the queue's event log: what became of its tasks (completed, failed, dead-lettered,",
                "cancelled), oldest first, one line each: seq, time, event, partition, id and reason.",
                "The queue keeps a log only with 'ordo settings --event-log-length N'."},
        footer = {"", "Examples:", "  ordo events --backend lettuce --queue emails",
                "  ordo events --backend lettuce --queue emails --follow"})
final class EventsCommand extends QueueCommand {
    @Option(names = "--after", paramLabel = "CURSOR", defaultValue = ListingCursor.START,
            description = "Where to begin: a cursor an earlier run printed (default: the oldest event kept).")
    String after;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "The most events printed per read (1..1000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--follow", description = "Go on reading, printing events as they come, until stopped"
            + " (or --follow-for has passed).")
    boolean follow;

    @Option(names = "--follow-for", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With --follow, stop after this long (default: never).")
    Duration followFor;

    @Option(names = "--poll-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "1s", description = "With --follow, how long to wait when the log has nothing new"
            + " (default ${DEFAULT-VALUE}).")
    Duration pollInterval;

    @Override
    public Integer call() {
        PrintWriter out = out();
        return onStore((TaskEvents store) -> {
            if (!store.settings().keepsEvents()) {
                out.printf("queue %s keeps no event log (see ordo settings --event-log-length)%n", queueName());
                return done();
            }
            long stopAt = followFor == null ? Long.MAX_VALUE : System.nanoTime() + followFor.toNanos();
            String cursor = after;
            while (true) {
                TaskEventPage page = store.events(cursor, limit);
                if (page.missed()) {
                    out.println("(the log dropped events before they were read: it keeps the latest "
                            + store.settings().eventLogLength() + ")");
                }
                page.events().forEach(event -> print(out, event));
                cursor = page.next();
                out.flush();
                if (!follow) {
                    out.printf("next: %s%n", cursor.isEmpty() ? "(from the start)" : cursor);
                    return done();
                }
                if (page.events().size() < limit) {
                    if (System.nanoTime() >= stopAt) {
                        return done();
                    }
                    sleep(Math.min(pollInterval.toNanos(), Math.max(0, stopAt - System.nanoTime())));
                }
            }
        });
    }

    private static void print(PrintWriter out, TaskEvent event) {
        out.printf("%d  %s  %s  %s  %s%s%n", event.seq(), event.at(), Labels.of(event.type()),
                TerminalText.escape(event.partition().code()), TerminalText.escape(event.id()),
                event.reason().map(reason -> "  " + TerminalText.escape(reason)).orElse(""));
    }

    private static void sleep(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos).toMillis());
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped while following the event log", stopped);
        }
    }
}
