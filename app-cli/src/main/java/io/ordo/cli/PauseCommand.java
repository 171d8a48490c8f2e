package io.ordo.cli;

import io.ordo.ports.QueueAdmin;
import picocli.CommandLine.Command;

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
final class PauseCommand extends QueueCommand {
    @Override
    public Integer call() {
        onStore((QueueAdmin store) -> {
            store.pause();
            return null;
        });
        out().printf("queue %s paused: it delivers nothing until resumed%n", queueName());
        return done();
    }
}
