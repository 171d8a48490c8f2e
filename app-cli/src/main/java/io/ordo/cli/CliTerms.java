package io.ordo.cli;

import io.ordo.domain.InvalidInputException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's messages in the CLI's words: a field the command sets through an option is named by
 * the option ({@code heartbeatTtl} → {@code --heartbeat-ttl}), and durations are written as the options
 * take them ({@code PT0.5S} → {@code 500ms}).
 */
final class CliTerms {
    /** Fields whose option is not their name in kebab case. */
    private static final Map<String, String> OPTION_OF_FIELD = Map.of(
            "redisUri", "--redis",
            "gracePeriod", "--grace",
            "consumer", "--consumer",
            "runAt", "--at",
            "timeout", "--task-timeout",
            "extension", "--extend-lease");
    private static final Pattern CAMEL_CASE_WORD = Pattern.compile("\\b[a-z]+(?:[A-Z][a-z0-9]*)+\\b");
    private static final Pattern ISO_DURATION = Pattern.compile("\\bP(?:-?\\d+D)?(?:T(?:-?\\d+H)?(?:-?\\d+M)?(?:-?\\d+(?:\\.\\d+)?S)?)?\\b");

    private CliTerms() {
    }

    /** {@code field: problem} with the field as the command's option, where it has one. */
    static String of(InvalidInputException invalid, CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        return field(invalid.field(), spec) + ": " + durations(otherFields(invalid.problem(), spec));
    }

    /** A problem may name another field ("must exceed heartbeatTtl"): named by its option too. */
    private static String otherFields(String problem, CommandSpec command) {
        Matcher camelCase = CAMEL_CASE_WORD.matcher(problem);
        StringBuilder result = new StringBuilder();
        while (camelCase.find()) {
            camelCase.appendReplacement(result, Matcher.quoteReplacement(field(camelCase.group(), command)));
        }
        camelCase.appendTail(result);
        return result.toString();
    }

    private static String field(String field, CommandSpec command) {
        String option = OPTION_OF_FIELD.getOrDefault(field,
                "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT));
        for (CommandSpec level = command; level != null; level = level.parent()) {
            if (level.findOption(option) != null) {
                return option;
            }
        }
        return field;
    }

    /** Every ISO-8601 duration in {@code text}, as the CLI's options write durations. */
    static String durations(String text) {
        Matcher matcher = ISO_DURATION.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String replacement = matcher.group();
            if (replacement.length() > 1 && !replacement.equals("PT")) {
                try {
                    replacement = readable(Duration.parse(matcher.group()));
                } catch (DateTimeParseException notADuration) {
                    // left as it was
                }
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 365d}: the largest unit that states it exactly. */
    static String readable(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }
}
