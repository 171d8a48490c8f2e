package io.ordo.ports;

/** Error reasons are kept short: a stack trace's first line tells what happened, the rest belongs in logs. */
public final class Reasons {
    private Reasons() {
    }

    public static String truncate(String reason) {
        if (reason == null) {
            return "";
        }
        if (reason.length() <= Rejection.MAX_REASON_LENGTH) {
            return reason;
        }
        return reason.substring(0, Rejection.MAX_REASON_LENGTH - 1) + "…";
    }
}
