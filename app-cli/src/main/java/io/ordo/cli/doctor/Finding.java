package io.ordo.cli.doctor;

/** One result of {@code ordo doctor}: what was checked, what was found, and what to do about it (empty when nothing). */
public record Finding(Verdict verdict, String check, String found, String fix) {
    /** How bad a finding is. */
    public enum Verdict {
        /** As Ordo needs it. */
        OK,
        /** Works, but a risk the operator should weigh (no persistence, slow round trips, something not checkable). */
        WARN,
        /** Loses tasks or keeps Ordo from working. */
        FAIL
    }

    static Finding ok(String check, String found) {
        return new Finding(Verdict.OK, check, found, "");
    }

    static Finding warn(String check, String found, String fix) {
        return new Finding(Verdict.WARN, check, found, fix);
    }

    static Finding fail(String check, String found, String fix) {
        return new Finding(Verdict.FAIL, check, found, fix);
    }
}
