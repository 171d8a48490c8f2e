package io.ordo.cli;

import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class CliTermsTest {
    private final CommandLine settings = OrdoCli.commandLine().getSubcommands().get("settings");

    @Test
    void fields_the_command_sets_by_option_are_named_by_the_option_and_durations_as_options_take_them() {
        InvalidInputException invalid = new InvalidInputException("processingTimeout",
                "must be longer than heartbeatTtl (PT30S), was PT0.5S");

        assertThat(CliTerms.of(invalid, settings))
                .isEqualTo("--processing-timeout: must be longer than --heartbeat-ttl (30s), was 500ms");
    }

    @Test
    void fields_without_an_option_on_this_command_keep_their_name() {
        assertThat(CliTerms.of(new InvalidInputException("headers.name", "must not be empty"), settings))
                .isEqualTo("headers.name: must not be empty");
        assertThat(CliTerms.of(new InvalidInputException("priority", "out of range"), settings))
                .as("settings has no --priority").isEqualTo("priority: out of range");
        assertThat(CliTerms.of(new InvalidInputException("redisUri", "needs a host"), settings))
                .as("--redis is inherited from the top-level command").isEqualTo("--redis: needs a host");
    }

    @ParameterizedTest
    @CsvSource({"PT0S, 0s", "PT0.25S, 250ms", "PT5S, 5s", "PT1M30S, 90s", "PT2M, 2m", "PT1H, 1h", "PT24H, 1d", "PT8760H, 365d"})
    void durations_read_as_they_are_written_on_the_command_line(String iso, String readable) {
        assertThat(CliTerms.readable(Duration.parse(iso))).isEqualTo(readable);
        assertThat(new DurationConverter().convert(readable)).isEqualTo(Duration.parse(iso));
    }
}
