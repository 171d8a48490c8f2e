package io.ordo.domain;

/**
 * Why reclaim took a task back from the consumer holding it (docs/semantics.md). A task carries it with
 * the last error reclaim gave it, so a worker can tell a task that may have killed its last holder
 * without reading the error's text.
 */
public enum ReclaimCause {
    /** The holder stopped heartbeating: it died or lost the store while holding the task. */
    HOLDER_STOPPED_HEARTBEATING(1),
    /** The task was held longer than the queue's processing timeout. */
    PROCESSING_TIMED_OUT(2);

    private final int code;

    ReclaimCause(int code) {
        this.code = code;
    }

    /** The number a store keeps for it (a stored record's byte): never reused for another cause. */
    public int code() {
        return code;
    }

    /** The cause a stored number stands for. */
    public static ReclaimCause ofCode(int code) {
        for (ReclaimCause cause : values()) {
            if (cause.code == code) {
                return cause;
            }
        }
        throw new IllegalArgumentException("no reclaim cause has code " + code);
    }
}
