package io.ordo.cli;

import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * Stops a queue from delivering tasks; publishing goes on.
 *
 * <pre>
 * ordo pause --backend lettuce --queue orders
 * </pre>
 */
@Command(name = "pause", mixinStandardHelpOptions = true,
        description = "Stops a queue from delivering tasks (publishing goes on) until 'ordo resume'.",
        footer = {"", "Example:", "  ordo pause --backend lettuce --queue orders"})
final class PauseCommand implements Callable<Integer> {
    @Mixin
    BackendOptions backend;

    @Mixin
    QueueOption queue;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            stores.forQueue(queue.name()).pause();
        }
        spec.commandLine().getOut().printf("queue %s paused: it delivers nothing until resumed%n", queue.name());
        spec.commandLine().getOut().flush();
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }
}
