package io.ordo.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import io.ordo.domain.InvalidInputException;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.jedis.JedisQueueModule;
import io.ordo.lettuce.LettuceQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import io.ordo.redis.RedisOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The backend options every command shares. The CLI is the one place that knows every backend:
 * it picks the Guice module to install, and the rest of the command sees only the ports
 * (docs/decisions/cli-backend-selection.md).
 */
@Command // a mixin without options of its own: it reads the inherited ones of the top-level command
final class BackendOptions {
    static final String DEFAULT_REDIS = "redis://localhost:6379";
    /** Where {@code --redis} comes from when not given, so a password can come from a Kubernetes Secret, not the command line. */
    static final String REDIS_ENVIRONMENT_VARIABLE = "ORDO_REDIS_URI";
    private static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Opens the chosen backend; the in-memory one runs on {@code clock}. */
    TaskStoreFactory open(Clock clock) {
        return injector(clock).getInstance(TaskStoreFactory.class);
    }

    /** For a one-shot command: the backend opened, and every call on it, fail within {@code --timeout}. */
    TaskStoreFactory openWithinTimeout(Clock clock) {
        Deadline deadline = new Deadline(timeout(), describe());
        return deadline.bound(deadline.within(() -> open(clock)));
    }

    /** {@code --timeout}, checked: above zero and at most an hour. */
    Duration timeout() {
        Duration timeout = root().timeout;
        if (timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new ParameterException(command.commandLine(), "--timeout must be above 0 and at most 1h, was "
                    + CliTerms.readable(timeout));
        }
        return timeout;
    }

    /** An injector with the backend's module (binding the store factory and the clock) and {@code more}. */
    Injector injector(Clock clock, Module... more) {
        List<Module> modules = new ArrayList<>(List.of(more));
        modules.add(module(clock));
        return Guice.createInjector(modules);
    }

    Backend backend() {
        return root().backend;
    }

    /** The options live on the top-level command (inherited by every subcommand), so they may stand before or after the command name. */
    private OrdoCli root() {
        return (OrdoCli) command.root().userObject();
    }

    /** Where the queues are, for messages: {@code inmemory} or the Redis address. */
    String describe() {
        return backend() == Backend.INMEMORY ? "inmemory" : backend() + " at " + redisOptions().endpoint();
    }

    /** A one-shot command on the in-memory backend leaves nothing behind: say so, on stderr. */
    void noteWhenNothingPersists() {
        if (backend() == Backend.INMEMORY) {
            command.commandLine().getErr().println("ordo: note: the inmemory backend keeps queues only while this command runs");
            command.commandLine().getErr().flush();
        }
    }

    private Module module(Clock clock) {
        return switch (backend()) {
            case INMEMORY -> {
                // only an explicit --redis is a mistake here; ORDO_REDIS_URI may be set for other commands
                if (command.commandLine().getParseResult().hasMatchedOption("--redis")
                        || command.root().commandLine().getParseResult().hasMatchedOption("--redis")) {
                    throw new ParameterException(command.commandLine(),
                            "--redis applies to the lettuce and jedis backends, not to inmemory");
                }
                yield new InMemoryQueueModule(clock);
            }
            // Redis stores keep time with the server's clock; the module binds this one for the worker's own intervals.
            case LETTUCE -> new LettuceQueueModule(redisOptions(), clock);
            case JEDIS -> new JedisQueueModule(redisOptions(), clock);
        };
    }

    /** The Redis connection options of {@code --redis} (ordo doctor checks that deployment whatever {@code --backend} says). */
    RedisOptions redisOptions() {
        try {
            RedisOptions.Builder options = RedisOptions.builder(root().redis == null ? DEFAULT_REDIS : root().redis);
            // each call waits --timeout; connecting waits no longer than the client's own default either
            Duration timeout = timeout();
            return options.commandTimeout(timeout)
                    .connectTimeout(timeout.compareTo(RedisOptions.DEFAULT_CONNECT_TIMEOUT) < 0 ? timeout
                            : RedisOptions.DEFAULT_CONNECT_TIMEOUT)
                    .build();
        } catch (InvalidInputException e) {
            throw new ParameterException(command.commandLine(), "--redis " + e.problem());
        }
    }
}
