package io.ordo.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @ParameterizedTest
    @CsvSource({"0s, PT0S", "250ms, PT0.25S", "5s, PT5S", "2m, PT2M", "1h, PT1H", "1d, PT24H", "PT1M30S, PT1M30S", "10S, PT10S"})
    void reads_amounts_with_units_and_iso_durations(String text, String expected) {
        assertThat(converter.convert(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "-5s", "5 s", "5 parsecs", "P", "1.5s"})
    void refuses_anything_else_with_a_hint(String text) {
        assertThatThrownBy(() -> converter.convert(text))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("is not a duration (use e.g. 250ms, 5s");
    }
}
