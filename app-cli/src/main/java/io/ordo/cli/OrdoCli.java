package io.ordo.cli;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.OrdoException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The {@code ordo} command line.
 *
 * <pre>
 * java -jar ordo.jar demo
 * java -jar ordo.jar publish --queue orders --partition account-42 --ordered '{"cents":100}'
 * java -jar ordo.jar work --backend lettuce --redis redis://localhost:6379 --queue orders --metrics-port 9090
 * java -jar ordo.jar stats --queue orders
 * java -jar ordo.jar dashboard --demo
 * </pre>
 *
 * Every failure is one line on stderr, {@code ordo: <message>}, and an exit code from {@link ExitCodes}.
 */
@Command(name = "ordo",
        description = "Fault-tolerant task queues on Redis, with ordered partitions.",
        mixinStandardHelpOptions = true,
        versionProvider = OrdoCli.Version.class,
        subcommands = {DemoCommand.class, PublishCommand.class, WorkCommand.class, StatsCommand.class, GetCommand.class,
                CancelCommand.class, DeadCommand.class, PauseCommand.class, ResumeCommand.class,
                SettingsCommand.class, DashboardCommand.class, DoctorCommand.class})
public final class OrdoCli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    // Inherited: accepted before the command name (ordo --backend jedis stats) and after it alike.
    @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = "inmemory", converter = Backend.Converter.class,
            scope = ScopeType.INHERIT,
            description = "Where queues live: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Backend backend;

    // The description names the variable, never its value: the URI may hold a password.
    @Option(names = "--redis", paramLabel = "URI", defaultValue = "${env:" + BackendOptions.REDIS_ENVIRONMENT_VARIABLE + "}",
            scope = ScopeType.INHERIT,
            description = "The Redis of the lettuce and jedis backends: redis://[user:password@]host[:port][/db], "
                    + "rediss:// for TLS (default: $" + BackendOptions.REDIS_ENVIRONMENT_VARIABLE + " if set, else "
                    + BackendOptions.DEFAULT_REDIS + ").")
    String redis;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with Ordo's error reporting; tests set its out and err writers. */
    public static CommandLine commandLine() {
        return new CommandLine(new OrdoCli())
                .setParameterExceptionHandler(OrdoCli::reportBadArguments)
                .setExecutionExceptionHandler(OrdoCli::reportFailure);
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: demo, publish, work, stats, get, cancel, dead, pause, resume, settings or dashboard (see 'ordo --help')");
    }

    private static int reportBadArguments(ParameterException problem, String[] args) {
        report(problem.getCommandLine().getErr(), problem.getMessage());
        return ExitCodes.BAD_INPUT;
    }

    private static int reportFailure(Exception problem, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        if (problem instanceof InvalidInputException) {
            report(err, problem.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (problem instanceof OrdoException) {
            report(err, problem.getMessage());
            return ExitCodes.FAILURE;
        }
        // A bug, not the user's doing: the type is the most useful single line to report.
        report(err, "unexpected " + problem.getClass().getName()
                + (problem.getMessage() == null ? "" : ": " + problem.getMessage()));
        return ExitCodes.FAILURE;
    }

    private static void report(PrintWriter err, String message) {
        String oneLine = message == null ? "failed" : message.strip().replaceAll("\\s*\\R\\s*", " ");
        err.println("ordo: " + oneLine);
        err.flush();
    }

    /** The version in the jar's manifest; none when run from classes. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = OrdoCli.class.getPackage().getImplementationVersion();
            return new String[] {"ordo " + (version == null ? "(development build)" : version)};
        }
    }
}
