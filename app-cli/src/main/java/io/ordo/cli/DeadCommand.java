package io.ordo.cli;

import io.ordo.domain.DeadLetter;
import io.ordo.domain.TaskId;
import io.ordo.ports.Clock;
import io.ordo.ports.DeadLetterPage;
import io.ordo.ports.RedriveOutcome;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

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

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Lists dead letters, oldest first, with why they died.",
            footer = {"", "Example:", "  ordo dead list --backend lettuce --queue emails --limit 20"})
    static final class ListDead implements Callable<Integer> {
        @Mixin
        BackendOptions backend;

        @Mixin
        QueueOption queue;

        @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip the N oldest (default: 0).")
        int offset;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
                description = "Show at most N, 1..1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            DeadLetterPage page = onStore(backend, queue, store -> store.deadLetters(offset, limit));
            PrintWriter out = spec.commandLine().getOut();
            for (DeadLetter letter : page.items()) {
                out.printf("%s  %s  attempts %d  died %s  %s%n", letter.id(), letter.task().partition(),
                        letter.attempts(), Instant.ofEpochMilli(letter.deadAt()), letter.reason());
            }
            out.printf(page.items().isEmpty() ? "queue %s: %d dead letters%s%n" : "queue %s: %d dead letters, %s%n",
                    queue.name(), page.total(), page.items().isEmpty() ? "" : "showing " + (offset + 1) + ".."
                            + (offset + page.items().size()));
            out.flush();
            backend.noteWhenNothingPersists();
            return ExitCodes.OK;
        }
    }

    @Command(name = "redrive", mixinStandardHelpOptions = true,
            description = "Sends dead letters back to their partitions, attempts reset, due now.",
            footer = {"", "Examples:", "  ordo dead redrive --backend lettuce --queue emails welcome-42",
                    "  ordo dead redrive --backend lettuce --queue emails --all"})
    static final class Redrive implements Callable<Integer> {
        @Mixin
        BackendOptions backend;

        @Mixin
        QueueOption queue;

        @ArgGroup(multiplicity = "1")
        Selection selection;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            if (selection.all) {
                long count = onStore(backend, queue, TaskStore::redriveAll);
                out.printf("redrove %d dead letters of queue %s%n", count, queue.name());
            } else {
                Map<TaskId, RedriveOutcome> outcomes = onStore(backend, queue, store -> store.redrive(selection.taskIds()));
                outcomes.forEach((id, outcome) -> out.printf("%-8s  %s%n", Labels.of(outcome), id));
                long redriven = outcomes.values().stream().filter(RedriveOutcome.REDRIVEN::equals).count();
                out.printf("redrove %d of %d in queue %s%n", redriven, outcomes.size(), queue.name());
            }
            out.flush();
            backend.noteWhenNothingPersists();
            return ExitCodes.OK;
        }
    }

    @Command(name = "purge", mixinStandardHelpOptions = true,
            description = "Deletes dead letters for good.",
            footer = {"", "Examples:", "  ordo dead purge --backend lettuce --queue emails welcome-42",
                    "  ordo dead purge --backend lettuce --queue emails --all"})
    static final class Purge implements Callable<Integer> {
        @Mixin
        BackendOptions backend;

        @Mixin
        QueueOption queue;

        @ArgGroup(multiplicity = "1")
        Selection selection;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            long count = onStore(backend, queue, store -> selection.all ? store.purgeAllDeadLetters()
                    : store.purgeDeadLetters(selection.taskIds()));
            spec.commandLine().getOut().printf("purged %d dead letters of queue %s%n", count, queue.name());
            spec.commandLine().getOut().flush();
            backend.noteWhenNothingPersists();
            return ExitCodes.OK;
        }
    }

    private static <R> R onStore(BackendOptions backend, QueueOption queue, Function<TaskStore, R> operation) {
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            return operation.apply(stores.forQueue(queue.name()));
        }
    }
}
