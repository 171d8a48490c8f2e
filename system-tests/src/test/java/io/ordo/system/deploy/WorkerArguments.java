package io.ordo.system.deploy;

import io.ordo.cli.OrdoCli;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Deployment's container arguments, read by the CLI's own parser and adapted for a local run. */
final class WorkerArguments {
    private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private WorkerArguments() {
    }

    /** The typed value of {@code option} of the {@code work} command for these arguments: given, or its default. */
    static Object optionValue(List<String> args, String option) {
        CommandLine ordo = OrdoCli.commandLine();
        ParseResult parsed = ordo.parseArgs(args.toArray(String[]::new));
        if (!parsed.hasSubcommand() || !parsed.subcommand().commandSpec().name().equals("work")) {
            throw new AssertionError("the Deployment does not run the work command: " + args);
        }
        OptionSpec spec = parsed.subcommand().commandSpec().findOption(option);
        if (spec == null) {
            throw new AssertionError("work has no option " + option);
        }
        return spec.getValue();
    }

    /**
     * Kubernetes' {@code $(VAR)} expansion, then each {@code --name=value} or {@code --name value} of
     * {@code replacements} set to the new value (added when absent).
     */
    static List<String> adapted(List<String> args, Map<String, String> environment, Map<String, String> replacements) {
        List<String> result = new ArrayList<>();
        for (String arg : args) {
            Matcher variable = VARIABLE.matcher(arg);
            result.add(variable.replaceAll(match -> Matcher.quoteReplacement(environment.getOrDefault(match.group(1), match.group()))));
        }
        replacements.forEach((option, value) -> {
            int at = indexOf(result, option);
            if (at < 0) {
                result.add(option + "=" + value);
            } else if (result.get(at).equals(option)) {
                result.set(at + 1, value);
            } else {
                result.set(at, option + "=" + value);
            }
        });
        return result;
    }

    private static int indexOf(List<String> args, String option) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals(option) || args.get(i).startsWith(option + "=")) {
                return i;
            }
        }
        return -1;
    }
}
