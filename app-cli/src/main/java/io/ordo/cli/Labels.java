package io.ordo.cli;

import java.util.Locale;

/** Outcomes as the CLI prints them: {@code DEAD_LETTERED} becomes {@code dead-lettered}. */
public final class Labels {
    private Labels() {
    }

    public static String of(Enum<?> outcome) {
        return outcome.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
