package io.ordo.cli;

import io.ordo.domain.GroupName;
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

    @Option(names = "--group", paramLabel = "NAME",
            description = "A consumer group of the queue: its tasks, consumers, dead letters, stats and settings"
                    + " instead of the queue's own (see 'ordo group').")
    String group;

    @Spec
    CommandSpec spec;

    QueueName queueName() {
        return QueueName.of(queue);
    }

    /** The store of the queue, or of its group when {@code --group} names one. */
    TaskStore storeOf(TaskStoreFactory stores) {
        return group == null ? stores.forQueue(queueName()) : stores.forGroup(queueName(), GroupName.of(group));
    }

    /**
     * Runs the call on the queue's store, which is closed before the answer is printed. A command's call
     * names the role it uses as its parameter's type ({@code (QueueAdmin store) -> store.pause()}).
     */
    <R> R onStore(Function<? super TaskStore, R> call) {
        try (TaskStoreFactory stores = backend.openWithinTimeout(Clock.system())) {
            return call.apply(storeOf(stores));
        }
    }

    /**
     * Runs the call on the queue's store with the queue's existence known: a queue exists once anything
     * was published to it, it was paused, configured or has a consumer. Its counters tell in one read;
     * only a queue that looks empty is looked up among the backend's queues (a SCAN on Redis).
     */
    <R> R onExistingStore(Function<? super TaskStore, R> call, java.util.function.Predicate<R> looksAbsent) {
        try (TaskStoreFactory stores = backend.openWithinTimeout(Clock.system())) {
            TaskStore store = storeOf(stores);
            R answer = call.apply(store);
            if (looksAbsent.test(answer) && !store.stats().showsUse() && !stores.knownQueues().contains(queueName())) {
                throw new QueueNotFound();
            }
            return answer;
        }
    }


    /** The queue named has never held anything on this backend. */
    static final class QueueNotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        QueueNotFound() {
            super(null, null, false, false);
        }
    }

    /** Says on stderr that the queue does not exist (a mistyped --queue or --redis, most likely); exit 3. */
    int queueNotFound() {
        backend.noteWhenNothingPersists();
        spec.commandLine().getErr().printf("ordo: queue %s does not exist on %s (nothing was ever published to it;"
                + " check --queue and --backend/--redis)%n", queueName(), backend.describe());
        spec.commandLine().getErr().flush();
        return ExitCodes.NOT_FOUND;
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
