package io.ordo.cli;

import io.ordo.domain.QueueSettings;
import io.ordo.ports.QueueAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Prints a queue's settings and changes those given; every consumer uses them from its next operation on.
 *
 * <pre>
 * ordo settings --backend lettuce --queue orders --max-attempts 3 --processing-timeout 5m
 * </pre>
 */
@Command(name = "settings", mixinStandardHelpOptions = true,
        description = {"Prints a queue's settings, after changing those given. They are kept with the queue:",
                "every worker and client uses them from its next operation on."},
        footer = {"", "Examples:", "  ordo settings --backend lettuce --queue orders",
                "  ordo settings --backend lettuce --queue orders --max-attempts 3 --processing-timeout 5m"})
final class SettingsCommand extends QueueCommand {
    @Option(names = "--max-attempts", paramLabel = "N",
            description = "Deliveries before a failing or reclaimed task becomes a dead letter (default "
                    + QueueSettings.DEFAULT_MAX_ATTEMPTS + ").")
    Integer maxAttempts;

    @Option(names = "--processing-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Take a task back from a live worker held longer than this; 0 turns it off (the default).")
    Duration processingTimeout;

    @Option(names = "--heartbeat-ttl", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "A worker silent this long is dead and its tasks are returned (default "
                    + QueueSettings.DEFAULT_HEARTBEAT_TTL_SECONDS + "s).")
    Duration heartbeatTtl;

    @Option(names = "--dedup-window", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long an acked task's id stays a duplicate; 0 turns it off (the default).")
    Duration dedupWindow;

    @Option(names = "--max-payload-bytes", paramLabel = "N",
            description = "The largest payload a publish accepts (default "
                    + QueueSettings.DEFAULT_MAX_PAYLOAD_MIB + " MiB).")
    Integer maxPayloadBytes;

    @Override
    public Integer call() {
        QueueSettings settings = onStore((QueueAdmin store) -> {
            QueueSettings current = store.settings();
            if (!changesAnything()) {
                return current;
            }
            QueueSettings.Builder changed = current.toBuilder();
            if (maxAttempts != null) {
                changed.maxAttempts(maxAttempts);
            }
            if (processingTimeout != null) {
                changed.processingTimeout(processingTimeout);
            }
            if (heartbeatTtl != null) {
                changed.heartbeatTtl(heartbeatTtl);
            }
            if (dedupWindow != null) {
                changed.dedupWindow(dedupWindow);
            }
            if (maxPayloadBytes != null) {
                changed.maxPayloadBytes(maxPayloadBytes);
            }
            QueueSettings next = changed.build(); // validates every field before anything is stored
            store.configure(next);
            return next;
        });
        PrintWriter out = out();
        out.printf("queue %s on %s%s%n", queueName(), backend.backend(), changesAnything() ? " (changed)" : "");
        out.printf("  %-20s %d%n", "max attempts", settings.maxAttempts());
        out.printf("  %-20s %s%n", "processing timeout", settings.hasProcessingTimeout() ? millis(settings.processingTimeout()) : "off");
        out.printf("  %-20s %s%n", "heartbeat ttl", millis(settings.heartbeatTtl()));
        out.printf("  %-20s %s%n", "dedup window", settings.hasDedupWindow() ? millis(settings.dedupWindow()) : "off");
        out.printf("  %-20s %d%n", "max payload bytes", settings.maxPayloadBytes());
        return done();
    }

    private boolean changesAnything() {
        return maxAttempts != null || processingTimeout != null || heartbeatTtl != null || dedupWindow != null
                || maxPayloadBytes != null;
    }

    /** As the options take durations: {@code 30s}, {@code 5m}, {@code 250ms}. */
    private static String millis(Duration duration) {
        return CliTerms.readable(duration);
    }
}
