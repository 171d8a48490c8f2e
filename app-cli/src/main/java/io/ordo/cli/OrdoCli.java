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
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.time.Duration;
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
                CancelCommand.class, EventsCommand.class, DeadCommand.class, PauseCommand.class, ResumeCommand.class,
                SettingsCommand.class, ScheduleCommand.class, GroupCommand.class, DashboardCommand.class, DoctorCommand.class})
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

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            scope = ScopeType.INHERIT,
            description = {"How long to wait for the backend to answer, connecting included, before failing with"
                    + " exit 1 (default: ${DEFAULT-VALUE}).",
                    "work and dashboard wait this long for each call and ride out longer outages."})
    Duration timeout;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with Ordo's error reporting; tests set its out and err writers. */
    public static CommandLine commandLine() {
        return new CommandLine(new OrdoCli())
                // picocli's own messages name Java types ("is not an int"); the user wrote a number
                .registerConverter(Integer.class, OrdoCli::wholeNumber)
                .registerConverter(Integer.TYPE, OrdoCli::wholeNumber)
                .registerConverter(Double.class, OrdoCli::number)
                .registerConverter(Double.TYPE, OrdoCli::number)
                .setParameterExceptionHandler(OrdoCli::reportBadArguments)
                .setExecutionExceptionHandler(OrdoCli::reportFailure)
                .setExecutionStrategy(OrdoCli::refuseUnmatchedThenRun);
    }

    /**
     * Picocli ignores arguments it cannot match when help is asked for ({@code ordo nosuchcommand --help}
     * would print the top-level help and exit 0): an unknown command or argument is an error all the same.
     */
    private static int refuseUnmatchedThenRun(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (!level.unmatched().isEmpty()) {
                throw new UnmatchedArgumentException(level.commandSpec().commandLine(), level.unmatched());
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: demo, publish, work, stats, get, cancel, dead, pause, resume, settings, dashboard or doctor (see 'ordo --help')");
    }

    private static Integer wholeNumber(String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a whole number");
        }
    }

    private static Double number(String text) {
        try {
            return Double.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a number");
        }
    }

    private static int reportBadArguments(ParameterException problem, String[] args) {
        report(problem.getCommandLine().getErr(), problem.getMessage());
        return ExitCodes.BAD_INPUT;
    }

    private static int reportFailure(Exception problem, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        if (problem instanceof InvalidInputException invalid) {
            report(err, CliTerms.of(invalid, command));
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
        // messages may quote task data or input (an id, a reason): joined into one line, then escaped
        String oneLine = message == null ? "failed" : message.strip().replaceAll("\\s*\\R\\s*", " ");
        err.println("ordo: " + TerminalText.escape(oneLine));
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
