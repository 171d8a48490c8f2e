package io.ordo.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Reads an instant as ISO-8601 with its offset: {@code 2026-12-24T09:00:00Z} or {@code 2026-12-24T10:00:00+01:00}. */
final class InstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String text) {
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("'" + text + "' is not an instant (use e.g. 2026-12-24T09:00:00Z"
                    + " or 2026-12-24T10:00:00+01:00)");
        }
    }
}
