package io.ordo.cli;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.QueueStats;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * Prints a queue's counts and lag.
 *
 * <pre>
 * ordo stats --queue orders
 * </pre>
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Prints a queue's counts and lag.",
        footer = {"", "Example:", "  ordo stats --queue orders"})
final class StatsCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        QueueName queueName = QueueName.of(queue);
        QueueStats stats;
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            stats = stores.forQueue(queueName).stats();
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf("queue %s on %s%n", queueName, backend.backend());
        row(out, "ready", stats.ready());
        row(out, "delayed", stats.delayed());
        row(out, "in flight", stats.inFlight());
        row(out, "dead", stats.dead());
        row(out, "active partitions", stats.activePartitions());
        row(out, "locked partitions", stats.lockedPartitions());
        row(out, "blocked partitions", stats.blockedPartitions());
        row(out, "live consumers", stats.liveConsumers());
        row(out, "oldest due age ms", stats.oldestDueAgeMillis());
        row(out, "published total", stats.publishedTotal());
        row(out, "acked total", stats.ackedTotal());
        row(out, "dead-lettered total", stats.deadLetteredTotal());
        out.printf("  %-20s %s%n", "paused", stats.paused() ? "yes" : "no");
        out.flush();
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }

    private static void row(PrintWriter out, String name, long value) {
        out.printf("  %-20s %d%n", name, value);
    }
}
