package io.ordo.domain;

import java.util.Locale;

/** Outcomes and states as the CLI and the dashboard show them: {@code DEAD_LETTERED} becomes {@code dead-lettered}. */
public final class Labels {
    private Labels() {
    }

    public static String of(Enum<?> outcome) {
        return outcome.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
