package io.ordo.cli;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.TaskId;
import io.ordo.domain.Labels;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.DeadLetterAdmin;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Dead letters: list them, send them back to their partitions, or delete them.
 *
 * <pre>
 * ordo dead list --backend lettuce --queue emails
 * ordo dead redrive --backend lettuce --queue emails --all
 * ordo dead purge --backend lettuce --queue emails welcome-42
 * </pre>
 */
@Command(name = "dead", mixinStandardHelpOptions = true,
        description = "Dead letters: tasks that ran out of attempts or failed for good.",
        subcommands = {DeadCommand.ListDead.class, DeadCommand.Redrive.class, DeadCommand.Purge.class},
        footer = {"", "Examples:", "  ordo dead list --backend lettuce --queue emails",
                "  ordo dead redrive --backend lettuce --queue emails --all",
                "  ordo dead purge --backend lettuce --queue emails welcome-42"})
final class DeadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: list, redrive or purge (see 'ordo dead --help')");
    }

    /** Which dead letters a redrive or purge acts on: some ids, or all of them. */
    static final class Selection {
        @Parameters(paramLabel = "ID", arity = "1..*", description = "Ids of dead letters.")
        List<String> ids;

        @Option(names = "--all", required = true, description = "Every dead letter of the queue.")
        boolean all;

        List<TaskId> taskIds() {
            return ids.stream().map(TaskId::of).toList();
        }
    }

    /** A command on some dead letters or all of them. */
    abstract static class OnSelected extends QueueCommand {
        @ArgGroup(multiplicity = "1")
        Selection selection;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Lists dead letters, oldest first, with why they died.",
            footer = {"", "Example:", "  ordo dead list --backend lettuce --queue emails --limit 20"})
    static final class ListDead extends QueueCommand {
        @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip the N oldest (default: 0).")
        int offset;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
                description = "Show at most N, 1..1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() {
            DeadLetterPage page = onStore((DeadLetterAdmin store) -> store.deadLetters(offset, limit));
            for (DeadLetter letter : page.items()) {
                out().printf("%s  %s  attempts %d  died %s  %s%n", TerminalText.escape(letter.id()),
                        TerminalText.escape(letter.task().partition()), letter.attempts(),
                        Instant.ofEpochMilli(letter.deadAt()), TerminalText.escape(letter.reason()));
            }
            out().printf("queue %s: %d dead letters%s%n", queueName(), page.total(), page.items().isEmpty() ? ""
                    : ", showing " + (offset + 1) + ".." + (offset + page.items().size()));
            return done();
        }
    }

    @Command(name = "redrive", mixinStandardHelpOptions = true,
            description = "Sends dead letters back to their partitions, attempts reset, due now.",
            footer = {"", "Examples:", "  ordo dead redrive --backend lettuce --queue emails welcome-42",
                    "  ordo dead redrive --backend lettuce --queue emails --all"})
    static final class Redrive extends OnSelected {
        @Override
        public Integer call() {
            if (selection.all) {
                long count = onStore(DeadLetterAdmin::redriveAll);
                out().printf("redrove %d dead letters of queue %s%n", count, queueName());
                return done();
            }
            Map<TaskId, RedriveOutcome> outcomes = onStore((DeadLetterAdmin store) -> store.redrive(selection.taskIds()));
            outcomes.forEach((id, outcome) -> out().printf("%-8s  %s%n", Labels.of(outcome), TerminalText.escape(id)));
            long redriven = outcomes.values().stream().filter(RedriveOutcome.REDRIVEN::equals).count();
            out().printf("redrove %d of %d in queue %s%n", redriven, outcomes.size(), queueName());
            return done();
        }
    }

    @Command(name = "purge", mixinStandardHelpOptions = true,
            description = "Deletes dead letters for good.",
            footer = {"", "Examples:", "  ordo dead purge --backend lettuce --queue emails welcome-42",
                    "  ordo dead purge --backend lettuce --queue emails --all"})
    static final class Purge extends OnSelected {
        @Override
        public Integer call() {
            long count = onStore((DeadLetterAdmin store) -> selection.all ? store.purgeAllDeadLetters()
                    : store.purgeDeadLetters(selection.taskIds()));
            out().printf("purged %d dead letters of queue %s%n", count, queueName());
            return done();
        }
    }
}
