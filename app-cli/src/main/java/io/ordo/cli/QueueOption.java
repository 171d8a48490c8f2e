package io.ordo.cli;

import io.ordo.domain.QueueName;
import picocli.CommandLine.Option;

/** {@code --queue NAME}, shared by the commands that act on one queue. */
final class QueueOption {
    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    QueueName name() {
        return QueueName.of(queue);
    }
}
