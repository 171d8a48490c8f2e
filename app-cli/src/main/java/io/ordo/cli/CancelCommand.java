package io.ordo.cli;

import io.ordo.domain.TaskId;
import io.ordo.ports.CancelOutcome;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Deletes waiting tasks (or dead letters) by id; a task in flight is left alone.
 *
 * <pre>
 * ordo cancel --backend lettuce --queue emails welcome-42 welcome-43
 * </pre>
 */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = {"Deletes waiting tasks or dead letters by id. A task being processed is left alone",
                "(reported in-flight); an id that names nothing is reported unknown."},
        footer = {"", "Example:", "  ordo cancel --backend lettuce --queue emails welcome-42 welcome-43"})
final class CancelCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Mixin
    QueueOption queue;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "The ids of the tasks to cancel.")
    List<String> ids;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<TaskId> taskIds = ids.stream().map(TaskId::of).toList();
        Map<TaskId, CancelOutcome> outcomes;
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            outcomes = stores.forQueue(queue.name()).cancel(taskIds);
        }
        PrintWriter out = spec.commandLine().getOut();
        outcomes.forEach((id, outcome) -> out.printf("%-9s  %s%n", Labels.of(outcome), id));
        long cancelled = outcomes.values().stream().filter(CancelOutcome.CANCELLED::equals).count();
        out.printf("cancelled %d of %d in queue %s%n", cancelled, outcomes.size(), queue.name());
        out.flush();
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }
}
