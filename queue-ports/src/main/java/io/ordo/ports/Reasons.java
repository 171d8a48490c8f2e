package io.ordo.ports;

import io.ordo.domain.ConsumerId;

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

    /** The last error reclaim gives the tasks of a consumer that stopped heartbeating (docs/semantics.md). */
    public static String holderStoppedHeartbeating(ConsumerId consumer) {
        return "consumer " + consumer.value() + " stopped heartbeating";
    }

    /** The last error reclaim gives a task held longer than the processing timeout (docs/semantics.md). */
    public static String processingTimedOut(long timeoutMillis) {
        return "processing timed out after " + timeoutMillis + " ms";
    }

    /** Whether a last error is one reclaim gives: the task's last holder died or timed out while holding it. */
    public static boolean isReclaim(String lastError) {
        return lastError != null && ((lastError.startsWith("consumer ") && lastError.endsWith(" stopped heartbeating"))
                || lastError.startsWith("processing timed out after "));
    }
}
