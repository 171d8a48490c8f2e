package io.ordo.cli;

import io.ordo.domain.GroupName;
import io.ordo.ports.ConsumerGroups;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * A queue's consumer groups (docs/groups.md): each receives every task published after it was created.
 *
 * <pre>
 * ordo group create --queue orders billing
 * ordo group list --queue orders
 * ordo group delete --queue orders billing
 * </pre>
 */
@Command(name = "group", mixinStandardHelpOptions = true,
        description = {"A queue's consumer groups: each receives every task published after it was created and",
                "keeps its own order, leases, retries and dead letters. Once a queue has a group, publishing",
                "delivers to its groups only; 'ordo work --group NAME' works on one."},
        subcommands = {GroupCommand.Create.class, GroupCommand.ListGroups.class, GroupCommand.Delete.class},
        footer = {"", "Examples:",
                "  ordo group create --queue orders billing",
                "  ordo work --queue orders --group billing",
                "  ordo stats --queue orders --group billing",
                "  ordo group delete --queue orders billing"})
final class GroupCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: create, list or delete (see 'ordo group --help')");
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Creates a consumer group; it receives the tasks published from now on, and with --from",
                    "also the tasks waiting in another group (their attempts counted anew)."},
            footer = {"", "Examples:", "  ordo group create --queue orders billing",
                    "  ordo group create --queue orders --from billing audit"})
    static final class Create extends QueueCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "The group's name: 1..64 letters, digits, '.', '_', '-'.")
        String name;

        @Option(names = "--from", paramLabel = "GROUP",
                description = "Start with a copy of the tasks waiting in this group of the queue (not those in flight or dead).")
        String from;

        @Override
        public Integer call() {
            GroupName group = GroupName.of(name);
            GroupName backlogOf = from == null ? null : GroupName.of(from);
            boolean created = onStore((ConsumerGroups store) -> backlogOf == null ? store.createGroup(group)
                    : store.createGroup(group, backlogOf));
            if (!created) {
                out().printf("queue %s has a group %s already: nothing changed%n", queueName(), group);
            } else if (backlogOf == null) {
                out().printf("group %s of queue %s created: it receives the tasks published from now on%n", group, queueName());
            } else {
                out().printf("group %s of queue %s created with the tasks waiting in %s: it receives the tasks published"
                        + " from now on%n", group, queueName(), backlogOf);
            }
            return done();
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the queue's consumer groups, by name.",
            footer = {"", "Example:", "  ordo group list --queue orders"})
    static final class ListGroups extends QueueCommand {
        @Override
        public Integer call() {
            List<GroupName> groups = onStore(ConsumerGroups::groups);
            if (groups.isEmpty()) {
                out().printf("queue %s has no consumer groups%n", queueName());
            }
            groups.forEach(group -> out().println(group));
            return done();
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Deletes a consumer group with every task state, lease and dead letter it holds.",
            footer = {"", "Example:", "  ordo group delete --queue orders billing"})
    static final class Delete extends QueueCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "The group's name.")
        String name;

        @Override
        public Integer call() {
            GroupName group = GroupName.of(name);
            if (!onStore((ConsumerGroups store) -> store.deleteGroup(group))) {
                spec.commandLine().getErr().printf("ordo: queue %s has no group %s%n", queueName(), group);
                spec.commandLine().getErr().flush();
                return ExitCodes.NOT_FOUND;
            }
            out().printf("group %s of queue %s deleted%n", group, queueName());
            return done();
        }
    }
}
