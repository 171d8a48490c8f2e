package io.ordo.cli;

import io.ordo.domain.QueueSettings;
import io.ordo.ports.QueueStats;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * Prints a queue's counts and lag, and its caps and rate limits when it has any (those of its dead letters too).
 *
 * <pre>
 * ordo stats --queue orders
 * </pre>
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Prints a queue's counts and lag, and its caps and rate limits when it has any.",
        footer = {"", "Example:", "  ordo stats --queue orders"})
final class StatsCommand extends QueueCommand {
    @Override
    public Integer call() {
        QueueStats stats;
        QueueSettings settings;
        try {
            StatsAndSettings answer = onExistingStore(store -> new StatsAndSettings(store.stats(), store.settings()),
                    read -> true);
            stats = answer.stats();
            settings = answer.settings();
        } catch (QueueNotFound absent) {
            return queueNotFound();
        }
        PrintWriter out = out();
        out.printf("queue %s on %s%n", queueName(), backend.backend());
        row(out, "ready", stats.ready());
        row(out, "delayed", stats.delayed());
        row(out, "in flight", stats.inFlight());
        row(out, "dead", stats.dead());
        row(out, "active partitions", stats.activePartitions());
        row(out, "locked partitions", stats.lockedPartitions());
        row(out, "blocked partitions", stats.blockedPartitions());
        if (settings.hasConcurrencyCaps() || settings.hasRateLimits()) { // only these can hold a partition back
            row(out, "capped partitions", stats.cappedPartitions());
            row(out, "throttled partitions", stats.throttledPartitions());
        }
        row(out, "live consumers", stats.liveConsumers());
        row(out, "oldest due age ms", stats.oldestDueAgeMillis());
        row(out, "published total", stats.publishedTotal());
        row(out, "acked total", stats.ackedTotal());
        row(out, "dead-lettered total", stats.deadLetteredTotal());
        if (settings.keepsResults() || stats.completed() > 0) {
            row(out, "completed (kept)", stats.completed());
        }
        if (settings.hasDeadLetterCaps() || stats.deadLettersDroppedTotal() > 0) { // only the caps drop any
            row(out, "dead letters dropped", stats.deadLettersDroppedTotal());
        }
        out.printf("  %-20s %s%n", "paused", stats.paused() ? "yes" : "no");
        SettingsCommand.printFlowLimits(out, settings);
        SettingsCommand.printRetention(out, settings);
        return done();
    }

    private record StatsAndSettings(QueueStats stats, QueueSettings settings) {
    }

    private static void row(PrintWriter out, String name, long value) {
        out.printf("  %-20s %d%n", name, value);
    }
}
