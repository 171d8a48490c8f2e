package io.ordo.cli;

import io.ordo.domain.TaskId;
import io.ordo.domain.Labels;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.QueueAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;

/**
 * Deletes waiting tasks (or dead letters) by id; a task in flight is asked to stop (docs/task-control.md): its
 * worker learns it with its next heartbeat or fetch, and it ends as cancelled.
 *
 * <pre>
 * ordo cancel --backend lettuce --queue emails welcome-42 welcome-43
 * </pre>
 */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = {"Deletes waiting tasks or dead letters by id; a task in flight is asked to stop:",
                "its worker learns it with its next heartbeat or fetch, and it ends as cancelled.",
                "Each id is reported cancelled, cancel-requested or unknown."},
        footer = {"", "Example:", "  ordo cancel --backend lettuce --queue emails welcome-42 welcome-43"})
final class CancelCommand extends QueueCommand {
    @Parameters(paramLabel = "ID", arity = "1..*", description = "The ids of the tasks to cancel.")
    List<String> ids;

    @Override
    public Integer call() {
        List<TaskId> taskIds = ids.stream().map(TaskId::of).toList();
        Map<TaskId, CancelOutcome> outcomes = onStore((QueueAdmin store) -> store.cancel(taskIds));
        outcomes.forEach((id, outcome) -> out().printf("%-9s  %s%n", Labels.of(outcome), TerminalText.escape(id)));
        long cancelled = outcomes.values().stream().filter(CancelOutcome.CANCELLED::equals).count();
        out().printf("cancelled %d of %d in queue %s%n", cancelled, outcomes.size(), queueName());
        return done();
    }
}
