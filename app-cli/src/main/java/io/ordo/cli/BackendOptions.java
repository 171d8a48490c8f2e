package io.ordo.cli;

import com.google.inject.Guice;
import com.google.inject.Module;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.net.URI;

/**
 * The backend options every command shares. The CLI is the one place that knows every backend:
 * it picks the Guice module to install, and the rest of the command sees only the ports
 * (docs/decisions/cli-backend-selection.md).
 */
final class BackendOptions {
    @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = "inmemory", converter = Backend.Converter.class,
            description = "Where queues live: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--redis", paramLabel = "URI",
            description = "The Redis to use with the lettuce and jedis backends, e.g. redis://localhost:6379.")
    URI redis;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Opens the chosen backend; the in-memory one runs on {@code clock}. */
    TaskStoreFactory open(Clock clock) {
        return Guice.createInjector(module(clock)).getInstance(TaskStoreFactory.class);
    }

    Backend backend() {
        return backend;
    }

    /** A one-shot command on the in-memory backend leaves nothing behind: say so, on stderr. */
    void noteWhenNothingPersists() {
        if (backend == Backend.INMEMORY) {
            command.commandLine().getErr().println("ordo: note: the inmemory backend keeps queues only while this command runs");
            command.commandLine().getErr().flush();
        }
    }

    private Module module(Clock clock) {
        return switch (backend) {
            case INMEMORY -> {
                if (redis != null) {
                    throw new ParameterException(command.commandLine(),
                            "--redis applies to the lettuce and jedis backends, not to inmemory");
                }
                yield new InMemoryQueueModule(clock);
            }
            case LETTUCE, JEDIS -> throw new ParameterException(command.commandLine(),
                    "backend " + backend + " is not built into this CLI yet");
        };
    }
}
