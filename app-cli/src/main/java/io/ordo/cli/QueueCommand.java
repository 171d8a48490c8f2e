package io.ordo.cli;

import io.ordo.domain.QueueName;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStore;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * A command that makes one call on one queue's store and prints the answer: the backend and
 * {@code --queue} options, the store opened and closed around the call.
 */
abstract class QueueCommand implements Callable<Integer> {
    /** The queue a command uses when none is named, as with Sidekiq's "default" queue. */
    static final String DEFAULT_QUEUE = "default";

    @Mixin
    BackendOptions backend;

    @Option(names = "--queue", paramLabel = "NAME", defaultValue = QueueCommand.DEFAULT_QUEUE,
            description = "The queue (default: ${DEFAULT-VALUE}).")
    String queue;

    @Spec
    CommandSpec spec;

    QueueName queueName() {
        return QueueName.of(queue);
    }

    /** Runs the call on the queue's store, which is closed before the answer is printed. */
    <R> R onStore(Function<TaskStore, R> call) {
        try (TaskStoreFactory stores = backend.open(Clock.system())) {
            return call.apply(stores.forQueue(queueName()));
        }
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Flushes what was printed and adds the in-memory backend's note; the exit code of success. */
    int done() {
        out().flush();
        backend.noteWhenNothingPersists();
        return ExitCodes.OK;
    }
}
