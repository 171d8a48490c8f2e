package io.ordo.cli;

import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * Lets a paused queue deliver again.
 *
 * <pre>
 * ordo resume --backend lettuce --queue orders
 * </pre>
 */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Lets a paused queue deliver tasks again.",
        footer = {"", "Example:", "  ordo resume --backend lettuce --queue orders"})
final class ResumeCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Mixin
    QueueOption queue;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            stores.forQueue(queue.name()).resume();
        }
        spec.commandLine().getOut().printf("queue %s resumed%n", queue.name());
        spec.commandLine().getOut().flush();
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }
}
