package io.ordo.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people write them: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d}, or ISO {@code PT5S}. */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    @Override
    public Duration convert(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = AMOUNT_AND_UNIT.matcher(value);
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        if (value.startsWith("p")) {
            try {
                return Duration.parse(text.trim());
            } catch (DateTimeParseException e) {
                // falls through to the message below
            }
        }
        throw new TypeConversionException("'" + text + "' is not a duration (use e.g. 250ms, 5s, 2m, 1h, 1d or PT5S)");
    }
}
