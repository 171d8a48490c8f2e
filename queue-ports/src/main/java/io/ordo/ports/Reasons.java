package io.ordo.ports;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Text;
import io.ordo.domain.Validate;

/** Error reasons are kept short: a stack trace's first line tells what happened, the rest belongs in logs. */
public final class Reasons {
    private Reasons() {
    }

    /**
     * A reason as every store keeps it: at most {@link Rejection#MAX_REASON_LENGTH} characters (code
     * points), a longer one cut between characters and ended with an ellipsis; null is empty. An
     * unpaired surrogate is refused (field {@code reason}): no store could keep it as given.
     */
    public static String truncate(String reason) {
        if (reason == null) {
            return "";
        }
        Validate.wellFormed("reason", reason);
        return Text.truncate(reason, Rejection.MAX_REASON_LENGTH);
    }

    /**
     * The last error reclaim gives the tasks of a consumer that stopped heartbeating (docs/semantics.md), with
     * {@link io.ordo.domain.ReclaimCause#HOLDER_STOPPED_HEARTBEATING}.
     */
    public static String holderStoppedHeartbeating(ConsumerId consumer) {
        return "consumer " + consumer.value() + " stopped heartbeating";
    }

    /**
     * The last error reclaim gives a task held longer than the processing timeout (docs/semantics.md), with
     * {@link io.ordo.domain.ReclaimCause#PROCESSING_TIMED_OUT}.
     */
    public static String processingTimedOut(long timeoutMillis) {
        return "processing timed out after " + timeoutMillis + " ms";
    }
}
