package io.ordo.cli;

/** What {@code ordo} exits with (docs/decisions/cli-exit-codes.md). */
final class ExitCodes {
    /** The command did what it was asked. */
    static final int OK = 0;
    /** The backend failed (unreachable, refused, unusable data) or Ordo hit an unexpected error. */
    static final int FAILURE = 1;
    /** The arguments or the input were wrong; nothing was written. */
    static final int BAD_INPUT = 2;
    /** The task ({@code ordo get}) or the queue ({@code ordo stats}, {@code ordo get}) asked for does not exist. */
    static final int NOT_FOUND = 3;

    private ExitCodes() {
    }
}
