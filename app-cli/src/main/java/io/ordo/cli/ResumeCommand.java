package io.ordo.cli;

import io.ordo.ports.QueueAdmin;
import picocli.CommandLine.Command;

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
final class ResumeCommand extends QueueCommand {
    @Override
    public Integer call() {
        onStore((QueueAdmin store) -> {
            store.resume();
            return null;
        });
        out().printf("queue %s resumed%n", queueName());
        return done();
    }
}
